import { afterEach } from 'vitest';
import { migratePostgres } from '../../src/main/store/postgres/migrate.js';
import { openPostgresPool, type PgPool } from '../../src/main/store/postgres/pool.js';
import { createTestDatabase } from './postgres-databases.js';

export interface TestDatabase {
  url: string;
  /** A pool on the database, like one replica's; more with `openPool` (another replica). */
  pool: PgPool;
  openPool: () => PgPool;
}

export interface PostgresForTests {
  /** A fresh database for this test, migrated unless `migrate: false`. */
  database(options?: { migrate?: boolean }): Promise<TestDatabase>;
}

/**
 * A fresh database per test in the run's shared cluster (test/support/shared-postgres.ts). Pools
 * opened here end after each test.
 */
export function usePostgres(): PostgresForTests {
  const pools: PgPool[] = [];
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((pool) => pool.end()));
  });
  return {
    async database({ migrate = true } = {}): Promise<TestDatabase> {
      const url = await createTestDatabase();
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
