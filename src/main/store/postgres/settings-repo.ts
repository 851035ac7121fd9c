import type { SettingsRepository } from '../settings.js';
import type { Queryable } from './client.js';

/** settings-repo.ts on PostgreSQL: key → JSON text, shared by every replica. */
export function createPostgresSettingsRepository(q: Queryable): SettingsRepository {
  return {
    get: async (key) => {
      const { rows } = await q.query<{ value: string }>(
        'SELECT value FROM settings WHERE key = $1',
        [key],
      );
      return rows[0] ? (JSON.parse(rows[0].value) as unknown) : undefined;
    },
    set: async (key, value) => {
      if (value === undefined || value === null) {
        await q.query('DELETE FROM settings WHERE key = $1', [key]);
      } else {
        await q.query(
          'INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
          [key, JSON.stringify(value)],
        );
      }
    },
  };
}
