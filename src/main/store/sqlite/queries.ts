import type Database from 'better-sqlite3';
import type { Call, Calls } from '../sql/query.js';
import type { Sync } from '../store.js';
import type { Db } from './db.js';

interface Prepared {
  statement: Database.Statement<unknown[], unknown>;
  /** For each `?` in the rewritten SQL, which parameter (0-based) it takes; null: in order. */
  order: number[] | null;
}

/**
 * Runs the shared calls (sql/query.ts) on one connection, synchronously: each statement is
 * prepared on first use and kept, so a call costs what a hand-prepared statement does.
 */
export class SqliteQueries {
  readonly #prepared = new Map<string, Prepared>();

  constructor(readonly db: Db) {}

  run<R>(call: Call<R>): R {
    const { statement, order } = this.#prepare(call.sql);
    const params = bindable(call.params, order);
    switch (call.kind) {
      case 'rows':
        return call.answer(statement.all(...params));
      case 'row':
        return call.answer(statement.get(...params));
      case 'run':
        return call.answer(statement.run(...params).changes);
    }
  }

  /** The statement for `sql` with `$n` placeholders, prepared on first use. */
  #prepare(sql: string): Prepared {
    let prepared = this.#prepared.get(sql);
    if (!prepared) {
      const order: number[] = [];
      const text = sql.replace(/\$(\d+)/g, (_, n: string) => {
        order.push(Number(n) - 1);
        return '?';
      });
      prepared = {
        statement: this.db.prepare<unknown[], unknown>(text),
        order: order.every((p, i) => p === i) ? null : order,
      };
      this.#prepared.set(sql, prepared);
    }
    return prepared;
  }
}

/** Parameters as SQLite binds them: in `?` order, booleans as 0 or 1. */
function bindable(params: readonly unknown[], order: number[] | null): unknown[] {
  const out = order ? order.map((p) => params[p]) : [...params];
  for (let i = 0; i < out.length; i++) {
    if (typeof out[i] === 'boolean') out[i] = out[i] ? 1 : 0;
  }
  return out;
}

const perConnection = new WeakMap<Db, SqliteQueries>();

/** The one `SqliteQueries` of a connection: its repositories share the prepared statements. */
export function queriesOn(db: Db): SqliteQueries {
  let queries = perConnection.get(db);
  if (!queries) perConnection.set(db, (queries = new SqliteQueries(db)));
  return queries;
}

/** A repository whose every method is one shared call, run on `db`. */
export function sqliteRepository<T>(db: Db, calls: Calls<T>): Sync<T> {
  const queries = queriesOn(db);
  const repo: Record<string, unknown> = {};
  for (const [name, call] of Object.entries<(...a: unknown[]) => Call<unknown>>(
    calls as Record<string, (...a: unknown[]) => Call<unknown>>,
  )) {
    repo[name] = (...args: unknown[]): unknown => queries.run(call(...args));
  }
  return repo as Sync<T>;
}
