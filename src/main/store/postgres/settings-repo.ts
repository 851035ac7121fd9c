import type { SettingsRepository } from '../settings.js';
import { settingsCalls } from '../sql/settings.js';
import type { Queryable } from './client.js';
import { postgresRepository } from './queries.js';

/** sql/settings.ts on PostgreSQL, shared by every replica. */
export function createPostgresSettingsRepository(q: Queryable): SettingsRepository {
  return postgresRepository(q, settingsCalls);
}
