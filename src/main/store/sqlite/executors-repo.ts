import type { ExecutorsRepository } from '../executors.js';
import { executorsCalls } from '../sql/executors.js';
import type { Sync } from '../store.js';
import type { Db } from './db.js';
import { sqliteRepository } from './queries.js';

/** sql/executors.ts on SQLite. */
export function createExecutorsRepository(db: Db): Sync<ExecutorsRepository> {
  return sqliteRepository(db, executorsCalls);
}
