import type { Call, Calls } from '../sql/query.js';
import type { Queryable } from './client.js';

/** Runs one shared call (sql/query.ts) on the pool or a transaction's client. */
export async function runCall<R>(q: Queryable, call: Call<R>): Promise<R> {
  const result = await q.query(call.sql, call.params as unknown[]);
  switch (call.kind) {
    case 'rows':
      return call.answer(result.rows);
    case 'row':
      return call.answer(result.rows[0]);
    case 'run':
      return call.answer(result.rowCount ?? 0);
  }
}

/** A repository whose every method is one shared call, run on `q`. */
export function postgresRepository<T>(q: Queryable, calls: Calls<T>): T {
  const repo: Record<string, unknown> = {};
  for (const [name, call] of Object.entries<(...a: unknown[]) => Call<unknown>>(
    calls as Record<string, (...a: unknown[]) => Call<unknown>>,
  )) {
    repo[name] = (...args: unknown[]): Promise<unknown> => runCall(q, call(...args));
  }
  return repo as T;
}
