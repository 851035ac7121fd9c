import type { AlarmsRepository } from '../alarms.js';
import { alarmsCalls } from '../sql/alarms.js';
import type { Queryable } from './client.js';
import { postgresRepository } from './queries.js';

/** sql/alarms.ts on PostgreSQL, shared by every replica. */
export function createPostgresAlarmsRepository(q: Queryable): AlarmsRepository {
  return postgresRepository(q, alarmsCalls);
}
