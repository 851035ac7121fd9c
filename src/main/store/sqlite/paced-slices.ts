import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from './db.js';
import { neverWanted } from './writer-yield.js';
import { tracedTransaction } from './writer-trace.js';

/** How housekeeping on the ingress thread takes its time: slices of `ms`, a `share` of the time. */
export interface SlicePacing {
  ms: number;
  /** A slice of t ms is followed by t / share - t of rest, whatever else is waiting. */
  share: number;
}

/**
 * Retention runs on SQLite's writer thread, between its
 * commits (a commit arriving during a slice waits for it): 2 ms slices, a quarter of the time.
 * Pruning the oldest day of a week (the 125,000 entries) takes a few minutes; each
 * hour's prune after that, an hour's worth.
 */
export const RETENTION_PACING: SlicePacing = { ms: 2, share: 0.25 };

/**
 * `fn` in a transaction of its own without an fsync at commit (synchronous = NORMAL in WAL): a
 * prune's slice lost to a crash is done again by the next prune, and the next accept commit's
 * fsync makes it durable with its own. An fsync per slice cost 10-60 ms on a loaded disk.
 */
export function unsyncedTransaction<A extends unknown[], R>(
  db: Db,
  fn: (...args: A) => R,
  kind = 'slice',
): (...args: A) => R {
  const transaction = tracedTransaction(db, kind, fn);
  return (...args: A): R => {
    db.pragma('synchronous = NORMAL');
    try {
      return transaction(...args);
    } finally {
      db.pragma('synchronous = FULL');
    }
  };
}

/**
 * Runs `slice(budgetMs)` until it answers false (nothing more to do), resting after each slice
 * in proportion to the time it took: never a loop that holds the event loop, however much is
 * left. A slice takes at least a little work, so a slow one only lengthens its rest; none begins
 * while `lockWanted()` (a commit or a main-thread write waits for the lock). Stops
 * early, quietly, once `live()` is false (the store closed while work was left: the next prune
 * goes on from there).
 */
export async function pacedSlices(
  pacing: SlicePacing,
  slice: (budgetMs: number) => boolean,
  live: () => boolean,
  lockWanted: () => boolean = neverWanted,
): Promise<void> {
  while (live()) {
    // Someone waits for the write lock (writer-yield.ts): no slice begins until they have it.
    if (lockWanted()) {
      await sleep(1);
      continue;
    }
    const started = performance.now();
    const more = slice(pacing.ms);
    if (!more) return;
    const took = performance.now() - started;
    await sleep(Math.max(1, took / pacing.share - took));
  }
}
