import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { row, rows, run, some } from '../../../src/main/store/sql/query.js';
import { SqliteQueries } from '../../../src/main/store/sqlite/queries.js';

// SQL written once for both stores (`$n`), run by SQLite's adapter on a real in-memory database.
describe('the shared SQL on SQLite', () => {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (a TEXT, b TEXT, flag INTEGER) STRICT');
  const queries = new SqliteQueries(db);
  afterEach(() => db.exec('DELETE FROM t'));

  it('binds each value where its number says, out of order and repeated', () => {
    queries.run(run('INSERT INTO t (b, a, flag) VALUES ($2, $1, 0)', ['first', 'second']));
    const found = queries.run(
      row('SELECT a, b FROM t WHERE a = $1 OR b = $1 OR a = $2', ['first', 'none'], (r) => r),
    );
    expect(found).toEqual({ a: 'first', b: 'second' });
  });

  it('stores booleans as 0 and 1, and answers how many rows a write changed', () => {
    queries.run(run('INSERT INTO t (a, b, flag) VALUES ($1, $2, $3)', ['x', 'y', true]));
    queries.run(run('INSERT INTO t (a, b, flag) VALUES ($1, $2, $3)', ['z', 'y', false]));
    expect(
      queries.run(rows('SELECT flag FROM t ORDER BY a', [], (r: { flag: number }) => r.flag)),
    ).toEqual([1, 0]);
    expect(queries.run(run('DELETE FROM t WHERE b = $1', ['y'], (n) => n))).toBe(2);
    expect(queries.run(run('DELETE FROM t WHERE b = $1', ['y'], some))).toBe(false);
  });

  it('answers at once, not with a promise: SQLite callers never wait a tick', () => {
    const answer = queries.run(row('SELECT count(*) AS n FROM t', [], (r?: { n: number }) => r!.n));
    expect(answer).toBe(0);
  });
});
