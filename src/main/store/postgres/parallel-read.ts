import pg from 'pg';
import { withTransaction, type Queryable } from './client.js';

/**
 * A read whose statement the planner underestimates, with parallel workers allowed however small
 * it looks: a trigram `LIKE` on the payloads is estimated at ~12 rows (their texts are too wide
 * for the column statistics), which kept a common text's first count, tens of thousands of
 * payloads rechecked, in one process. `SET LOCAL`: this read's transaction only. On a client
 * already inside a caller's transaction it runs as it is, leaving that transaction's settings.
 */
export async function withParallelWorkers<T>(
  q: Queryable,
  read: (on: Queryable) => Promise<T>,
): Promise<T> {
  if (!(q instanceof pg.Pool)) return read(q);
  return withTransaction(q, async (client) => {
    await client.query(
      `SELECT set_config('parallel_setup_cost', '0', true),
              set_config('min_parallel_table_scan_size', '0', true)`,
    );
    return read(client);
  });
}
