import type { AlarmsRepository } from '../alarms.js';
import { alarmsCalls } from '../sql/alarms.js';
import type { Sync } from '../store.js';
import type { Db } from './db.js';
import { sqliteRepository } from './queries.js';

/** sql/alarms.ts on SQLite. */
export function createAlarmsRepository(db: Db): Sync<AlarmsRepository> {
  return sqliteRepository(db, alarmsCalls);
}
