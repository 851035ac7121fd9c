import type { Db } from './db.js';

export interface FactoryRecord {
  id: string;
  name: string;
  definitionsDir: string | null;
  executor: string;
  createdAt: number;
}

export interface FactoryRow {
  id: string;
  name: string;
  definitions_dir: string | null;
  executor: string;
  created_at: number;
}

export const toRecord = (r: FactoryRow): FactoryRecord => ({
  id: r.id,
  name: r.name,
  definitionsDir: r.definitions_dir,
  executor: r.executor,
  createdAt: r.created_at,
});

export const DEFAULT_FACTORY_ID = 'default';

export type FactoriesRepository = ReturnType<typeof createFactoriesRepository>;

export function createFactoriesRepository(db: Db) {
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
