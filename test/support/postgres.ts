import { afterAll, afterEach, beforeAll } from 'vitest';
import { migratePostgres } from '../../src/main/store/postgres/migrate.js';
import { openPostgresPool, type PgPool } from '../../src/main/store/postgres/pool.js';
import { startPostgresCluster, type PostgresCluster } from './postgres-cluster.js';

export interface TestDatabase {
  url: string;
  /** A pool on the database, like one replica's; more with `openPool` (another replica). */
  pool: PgPool;
  openPool: () => PgPool;
}

export interface PostgresForTests {
  cluster(): PostgresCluster;
  /** A fresh database for this test, migrated unless `migrate: false`. */
  database(options?: { migrate?: boolean }): Promise<TestDatabase>;
}

/**
 * One private cluster for the test file (started before its tests, stopped and removed after
 * them, passed or not) and a fresh database per test. Pools opened here end after each test.
 */
export function usePostgres(): PostgresForTests {
  let cluster: PostgresCluster | null = null;
  const pools: PgPool[] = [];
  beforeAll(async () => {
    cluster = await startPostgresCluster();
  });
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((pool) => pool.end()));
  });
  afterAll(async () => {
    await cluster?.stop();
  });
  const running = (): PostgresCluster => {
    if (!cluster) throw new Error('The PostgreSQL cluster is not running (used outside a test?)');
    return cluster;
  };
  return {
    cluster: running,
    async database({ migrate = true } = {}): Promise<TestDatabase> {
      const url = await running().createDatabase();
      const openPool = (): PgPool => {
        const pool = openPostgresPool(url);
        pools.push(pool);
        return pool;
      };
      const pool = openPool();
      if (migrate) await migratePostgres(pool);
      return { url, pool, openPool };
    },
  };
}
