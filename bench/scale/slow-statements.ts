/**
 * A bench-only probe (scale-relay.ts, `--trace`): every SQLite statement run on this thread (the
 * relay's main thread, the one that answers senders) that takes longer than `thresholdMs` is
 * reported with its SQL, and so is every gap in the event loop longer than `thresholdMs`. The
 * writer thread is another isolate: its statements are not seen here, only what they make the
 * main thread wait for (a busy wait shows as a slow BEGIN IMMEDIATE or write here).
 */
import Database from 'better-sqlite3';
import { performance } from 'node:perf_hooks';
import { SqliteWriterThread } from '../../src/main/store/sqlite/sqlite-writer-thread.js';

type Method = (this: { source: string }, ...args: unknown[]) => unknown;

export function traceSlowStatements(thresholdMs: number, say: (line: string) => void): void {
  const report = (line: string): void => say(`${(performance.now() / 1000).toFixed(1)} s ${line}`);
  const probe = new Database(':memory:');
  const statement = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, Method>;
  probe.close();
  for (const name of ['run', 'get', 'all'] as const) {
    const original = statement[name]!;
    statement[name] = function timed(this: { source: string }, ...args: unknown[]): unknown {
      const started = performance.now();
      try {
        return original.apply(this, args);
      } finally {
        const took = performance.now() - started;
        if (took > thresholdMs) {
          const sql = this.source.replace(/\s+/g, ' ').trim().slice(0, 140);
          report(`[trace] ${took.toFixed(0)} ms ${name}: ${sql}`);
        }
      }
    };
  }
  // A batch's round trip to the writer thread: what a sender waits for beside the main thread.
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called with its own `this` below
  const commit = SqliteWriterThread.prototype.commit;
  SqliteWriterThread.prototype.commit = function timedCommit(this: SqliteWriterThread, batch) {
    const started = performance.now();
    const done = (): void => {
      const took = performance.now() - started;
      if (took > thresholdMs)
        report(`[trace] commit of ${batch.length} took ${took.toFixed(0)} ms`);
    };
    const result = commit.call(this, batch);
    result.then(done, done);
    return result;
  };
  let last = performance.now();
  const tick = setInterval(() => {
    const now = performance.now();
    if (now - last - 10 > thresholdMs)
      report(`[trace] loop held ${(now - last - 10).toFixed(0)} ms`);
    last = now;
  }, 10);
  tick.unref();
}
