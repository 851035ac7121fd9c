import type { SettingsRepository } from '../settings.js';
import { row, run, type Calls } from './query.js';

/** The settings table's SQL, for both stores: key → JSON text. */
export const settingsCalls: Calls<SettingsRepository> = {
  get: (key) =>
    row('SELECT value FROM settings WHERE key = $1', [key], (r?: { value: string }) =>
      r ? (JSON.parse(r.value) as unknown) : undefined,
    ),
  set: (key, value) =>
    value === undefined || value === null
      ? run('DELETE FROM settings WHERE key = $1', [key])
      : run(
          'INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
          [key, JSON.stringify(value)],
        ),
};
