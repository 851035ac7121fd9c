import type { AutomationsRepository } from '../automations.js';
import { automationsCalls } from '../sql/automations.js';
import type { Sync } from '../store.js';
import type { Db } from './db.js';
import { sqliteRepository } from './queries.js';

/** sql/automations.ts on SQLite. */
export function createAutomationsRepository(db: Db): Sync<AutomationsRepository> {
  return sqliteRepository(db, automationsCalls);
}
