import pg from 'pg';
import { withTransaction, type Queryable } from './client.js';

/**
 * A read with planner settings of its own (`SET LOCAL`: its transaction only), for a statement
 * the planner misjudges: a trigram `LIKE` on the payloads is estimated at ~12 rows whatever it
 * matches (their texts are too wide for the column statistics). On a client already inside a
 * caller's transaction it runs as it is, leaving that transaction's settings alone.
 */
export async function withLocalSettings<T>(
  q: Queryable,
  settings: Readonly<Record<string, string>>,
  read: (on: Queryable) => Promise<T>,
): Promise<T> {
  if (!(q instanceof pg.Pool)) return read(q);
  return withTransaction(q, async (client) => {
    const names = Object.keys(settings);
    await client.query(
      `SELECT ${names.map((_, i) => `set_config($${2 * i + 1}, $${2 * i + 2}, true)`).join(', ')}`,
      names.flatMap((name) => [name, settings[name]]),
    );
    return read(client);
  });
}
