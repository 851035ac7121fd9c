import type pg from 'pg';
import type { PgPool } from './pool.js';

/**
 * A pool client for the length of `use`. While checked out, a client whose connection fails
 * emits 'error' with nobody listening, which would end the process: the error is caught here,
 * and such a client (or one `use` marks broken) is discarded instead of returned to the pool.
 */
export async function withClient<T>(
  pool: PgPool,
  use: (client: pg.PoolClient, markBroken: () => void) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  const onError = (): void => {
    broken = true;
  };
  client.on('error', onError);
  try {
    return await use(client, onError);
  } finally {
    client.off('error', onError);
    client.release(broken);
  }
}

/** `work` in one transaction: COMMIT when it resolves, ROLLBACK when it throws. */
export function withTransaction<T>(
  pool: PgPool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  return withClient(pool, async (client, markBroken) => {
    await client.query('BEGIN');
    try {
      const value = await work(client);
      await client.query('COMMIT');
      return value;
    } catch (error) {
      await client.query('ROLLBACK').catch(markBroken);
      throw error;
    }
  });
}

/**
 * What a PostgreSQL repository runs its SQL on: the pool (each statement on its own) or one
 * client inside `withTransaction` (the statements of a `Store.transaction`).
 */
export type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;
