import {
  type FactoryRecord,
  type FactoryRow,
  toRecord,
  type FactoriesRepository,
} from '../factories.js';
import type { Sync } from '../store.js';
import type { Db } from './db.js';

export function createFactoriesRepository(db: Db): Sync<FactoriesRepository> {
  const all = db.prepare<[], FactoryRow>('SELECT * FROM factories ORDER BY created_at, id');
  const one = db.prepare<[string], FactoryRow>('SELECT * FROM factories WHERE id = ?');
  const insert = db.prepare(
    'INSERT OR IGNORE INTO factories (id, name, created_at) VALUES (@id, @name, @createdAt)',
  );
  const setDefinitionsDir = db.prepare('UPDATE factories SET definitions_dir = ? WHERE id = ?');

  return {
    all: (): FactoryRecord[] => all.all().map(toRecord),
    get: (id: string): FactoryRecord | null => {
      const row = one.get(id);
      return row ? toRecord(row) : null;
    },
    ensure: (id: string, name: string, createdAt: number): void => {
      insert.run({ id, name, createdAt });
    },
    setDefinitionsDir: (id: string, dir: string | null): void => {
      setDefinitionsDir.run(dir, id);
    },
  };
}
