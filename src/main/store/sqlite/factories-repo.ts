import type { FactoriesRepository } from '../factories.js';
import { factoriesCalls } from '../sql/factories.js';
import type { Sync } from '../store.js';
import type { Db } from './db.js';
import { sqliteRepository } from './queries.js';

/** sql/factories.ts on SQLite. */
export function createFactoriesRepository(db: Db): Sync<FactoriesRepository> {
  return sqliteRepository(db, factoriesCalls);
}
