import type { LinksRepository } from '../links.js';
import { linksCalls } from '../sql/links.js';
import type { Sync } from '../store.js';
import type { Db } from './db.js';
import { sqliteRepository } from './queries.js';

/** sql/links.ts on SQLite. */
export function createLinksRepository(db: Db): Sync<LinksRepository> {
  return sqliteRepository(db, linksCalls);
}
