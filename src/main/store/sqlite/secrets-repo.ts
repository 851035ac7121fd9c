import type { SecretsRepository } from '../secrets.js';
import { secretsCalls } from '../sql/secrets.js';
import type { Sync } from '../store.js';
import type { Db } from './db.js';
import { sqliteRepository } from './queries.js';

/** sql/secrets.ts on SQLite. */
export function createSecretsRepository(db: Db): Sync<SecretsRepository> {
  return sqliteRepository(db, secretsCalls);
}
