import type { SettingsRepository } from '../settings.js';
import type { Sync } from '../store.js';
import type { Db } from './db.js';

/** A small key → JSON value table for relay-wide settings. */
export function createSettingsRepository(db: Db): Sync<SettingsRepository> {
  const get = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?');
  const set = db.prepare(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );
  const remove = db.prepare('DELETE FROM settings WHERE key = ?');

  return {
    get: (key: string): unknown => {
      const row = get.get(key);
      return row ? (JSON.parse(row.value) as unknown) : undefined;
    },
    set: (key: string, value: unknown): void => {
      if (value === undefined || value === null) remove.run(key);
      else set.run(key, JSON.stringify(value));
    },
  };
}
