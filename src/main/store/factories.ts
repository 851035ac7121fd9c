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

export interface FactoriesRepository {
  all(): Promise<FactoryRecord[]>;
  get(id: string): Promise<FactoryRecord | null>;
  /** Creates the factory unless one of that ID exists. */
  ensure(id: string, name: string, createdAt: number): Promise<void>;
  setDefinitionsDir(id: string, dir: string | null): Promise<void>;
}
