import { performance } from 'node:perf_hooks';
import type { Db } from './db.js';
import { pacedSlices, UPKEEP_PACING, unsyncedTransaction } from './paced-slices.js';

/**
 * Leaf pages one 'merge' step writes: the smallest step. Even one page of a trigram index took
 * 6-110 ms on the loaded 2-core benchmark machine (most under 25 ms), the write lock held
 * throughout: so few steps, far apart (UPKEEP_PACING).
 */
const MERGE_PAGES = 1;
/**
 * At most this many steps per upkeep: the next prune (an hour later) goes on where this one
 * stopped, and never does one upkeep become a whole 'optimize'.
 */
const MAX_STEPS = 500;

/**
 * The trigram index after deletions: FTS5 (contentless_delete) leaves a tombstone per deleted
 * row in each segment, and every search reads past them until the segments are merged (after a
 * day's prune at a week's scale, a common word took 1.1 s instead of 263 ms). FTS5's 'merge' with
 * a positive page count merges segments that are due (those with more than 'deletemerge', 10 %,
 * of their rows deleted, and levels with 'usermerge' segments) a few pages at a time: paced
 * here like retention itself, never one long 'optimize' of the whole index.
 */
export function createIndexUpkeep(db: Db) {
  const live = (): boolean => db.open;
  const merge = db.prepare(
    `INSERT INTO delivery_search (delivery_search, rank) VALUES ('merge', ${MERGE_PAGES})`,
  );
  const totalChanges = db.prepare<[], number>('SELECT total_changes()').pluck();
  const step = unsyncedTransaction(db, (): boolean => {
    const before = totalChanges.get()!;
    merge.run();
    // The command's own row counts as one change; a merge that wrote pages counts more.
    return totalChanges.get()! - before > 1;
  });
  return {
    /** Merges what is due, in paced slices, until FTS5 has nothing left to merge. */
    async afterDeletes(): Promise<number> {
      let steps = 0;
      await pacedSlices(
        UPKEEP_PACING,
        (budgetMs) => {
          const started = performance.now();
          let worked = true;
          while (worked && steps < MAX_STEPS && performance.now() - started < budgetMs) {
            worked = step();
            steps++;
          }
          return worked && steps < MAX_STEPS;
        },
        live,
      );
      return steps;
    },
  };
}
