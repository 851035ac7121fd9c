import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { openConnection, openDatabase, type Db } from '../../src/main/store/sqlite/db.js';
import type { BatchItem, BatchResult } from '../../src/main/store/delivery-batch.js';
import { createPostgresBatchStore } from '../../src/main/store/postgres/batch-store.js';
import type { PgPool } from '../../src/main/store/postgres/pool.js';
import { createPostgresSearchIndex } from '../../src/main/store/postgres/search-index.js';
import { createSearchIndex } from '../../src/main/store/sqlite/search-index.js';
import { createSqliteBatchStore } from '../../src/main/store/sqlite/batch-store.js';
import type { StoreKind } from '../../src/main/store/store.js';
import { usePostgres } from './postgres.js';
import { tempDir } from './relay.js';

export const DEDUPE_WINDOW_MS = 24 * 60 * 60_000;

/** One fresh, migrated database of one store, for one test. */
export interface ContractDatabase {
  kind: StoreKind;
  /**
   * SQL for arranging a test (rows the repository under test does not write), with `$1`-style
   * parameters on both stores.
   */
  sql(text: string, params?: unknown[]): Promise<void>;
  /** Writes deliveries as the accept path does, and waits until the log shows them whole. */
  commit(batch: BatchItem[]): Promise<BatchResult>;
  /** A repository of this store: SQLite's on a connection, PostgreSQL's on a pool. */
  repository<R>(make: RepositoryMakers<R>): R;
  /** The same, as another relay (replica) on the same database would hold it. */
  replicaRepository<R>(make: RepositoryMakers<R>): R;
}

export interface RepositoryMakers<R> {
  sqlite: (db: Db) => R;
  postgres: (pool: PgPool) => R;
}

export interface ContractStore {
  kind: StoreKind;
  open(): Promise<ContractDatabase>;
}

/**
 * Both stores, for `describe.each`: a contract suite is written once and runs against SQLite
 * (a temp file) and PostgreSQL (a fresh database of a private cluster, see postgres.ts). Call it
 * at the top of a test file.
 */
export function useContractStores(): readonly ContractStore[] {
  const postgres = usePostgres();
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  const sqlite: ContractStore = {
    kind: 'sqlite',
    open() {
      const dir = tempDir();
      const file = join(dir, 'hookport.sqlite');
      const db = openDatabase(file);
      const connections = [db];
      cleanups.push(() => {
        for (const connection of connections) connection.close();
        rmSync(dir, { recursive: true, force: true });
      });
      const batchStore = createSqliteBatchStore(db, { dedupeWindowMs: DEDUPE_WINDOW_MS });
      const search = createSearchIndex(db);
      return Promise.resolve({
        kind: 'sqlite',
        sql(text, params = []) {
          // `$1` becomes the named `@p1`; booleans are integers in SQLite.
          const named = Object.fromEntries(
            params.map((v, i) => [`p${i + 1}`, typeof v === 'boolean' ? Number(v) : v]),
          );
          db.prepare(text.replace(/\$(\d+)/g, '@p$1')).run(named);
          return Promise.resolve();
        },
        async commit(batch) {
          const result = await batchStore.commit(batch);
          // The search index catches up in the background; a user searches a moment later.
          while (search.indexSome(1_000).more);
          return result;
        },
        repository: (make) => make.sqlite(db),
        replicaRepository(make) {
          const other = openConnection(file);
          connections.push(other);
          return make.sqlite(other);
        },
      });
    },
  };

  const pg: ContractStore = {
    kind: 'postgres',
    async open() {
      const { pool, openPool } = await postgres.database();
      const batchStore = createPostgresBatchStore(pool, { dedupeWindowMs: DEDUPE_WINDOW_MS });
      const search = createPostgresSearchIndex(pool);
      return {
        kind: 'postgres',
        async sql(text, params = []) {
          await pool.query(text, params);
        },
        async commit(batch) {
          const result = await batchStore.commit(batch);
          // As on SQLite: the relay's indexer would have caught up by the time a user searches.
          while ((await search.indexSome(1_000)).more);
          return result;
        },
        repository: (make) => make.postgres(pool),
        replicaRepository: (make) => make.postgres(openPool()),
      };
    },
  };

  return [sqlite, pg];
}
