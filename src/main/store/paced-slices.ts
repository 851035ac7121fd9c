import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

/** How housekeeping takes its time beside the senders: slices of `ms`, a `share` of the time. */
export interface SlicePacing {
  ms: number;
  /** A slice of t ms is followed by t / share - t of rest, whatever else is waiting. */
  share: number;
}

/**
 * Runs `slice(budgetMs)` until it answers false (nothing more to do), resting after each slice
 * in proportion to the time it took: never a loop that holds the senders' thread or database,
 * however much is left. A slice takes at least a little work, so a slow one only lengthens its
 * rest; none begins while `lockWanted()` (SQLite: a commit or a main-thread write waits for the
 * lock). Stops early, quietly, once `live()` is false (the store closed while work was left: the
 * next prune goes on from there).
 */
export async function pacedSlices(
  pacing: SlicePacing,
  slice: (budgetMs: number) => boolean | Promise<boolean>,
  live: () => boolean,
  lockWanted?: () => boolean,
): Promise<void> {
  while (live()) {
    if (lockWanted?.()) {
      await sleep(1);
      continue;
    }
    const started = performance.now();
    const more = await slice(pacing.ms);
    if (!more) return;
    const took = performance.now() - started;
    await sleep(Math.max(1, took / pacing.share - took));
  }
}
