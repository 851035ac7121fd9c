import pg from 'pg';
import { withTransaction, type Queryable } from './client.js';

/**
 * A read with planner settings of its own (`SET LOCAL`: its transaction only), for a statement
 * the planner misjudges: a trigram `LIKE` on the payloads is estimated at ~12 rows whatever it
 * matches (their texts are too wide for the column statistics). On a client already inside a
 * caller's transaction it runs as it is, leaving that transaction's settings alone.
 */
export function withLocalSettings<T>(
  q: Queryable,
  settings: Readonly<Record<string, string>>,
  read: (on: Queryable) => Promise<T>,
): Promise<T> {
  const names = Object.keys(settings);
  return inTransactionOfItsOwn(q, read, {
    text: `SELECT ${names.map((_, i) => `set_config($${2 * i + 1}, $${2 * i + 2}, true)`).join(', ')}`,
    values: names.flatMap((name) => [name, settings[name]]),
  });
}

/**
 * Reads that must see the log as one moment does (`REPEATABLE READ`: every statement reads the
 * first one's snapshot). Inside a caller's transaction they run in that one, as it is.
 */
export function withOneSnapshot<T>(q: Queryable, read: (on: Queryable) => Promise<T>): Promise<T> {
  return inTransactionOfItsOwn(q, read, {
    text: 'SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY',
    values: [],
  });
}

async function inTransactionOfItsOwn<T>(
  q: Queryable,
  read: (on: Queryable) => Promise<T>,
  first: { text: string; values: unknown[] },
): Promise<T> {
  if (!(q instanceof pg.Pool)) return read(q);
  return withTransaction(q, async (client) => {
    await client.query(first.text, first.values);
    return read(client);
  });
}
