import type { SettingsRepository } from '../settings.js';
import { settingsCalls } from '../sql/settings.js';
import type { Sync } from '../store.js';
import type { Db } from './db.js';
import { sqliteRepository } from './queries.js';

/** sql/settings.ts on SQLite. */
export function createSettingsRepository(db: Db): Sync<SettingsRepository> {
  return sqliteRepository(db, settingsCalls);
}
