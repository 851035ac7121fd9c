import { performance } from 'node:perf_hooks';
import type { Db } from './db.js';
import { unsyncedTransaction } from './unsynced-transaction.js';

/**
 * The deleted entries' rows that version 19 leaves in the index are forgotten all at once when
 * they are this share of it: the index is then at most a quarter larger than the log's entries
 * need, and its segments take tombstones once in a while (after about two days of hourly prunes
 * at the full rate) rather than every hour.
 */
const PURGE_SHARE = 0.2;
/** Fewer stale rows than this are never worth a pass over the index. */
const PURGE_MIN_ROWS = 1_000;
/** How often the share is looked at (one sum over the log's per-minute counts). */
const CHECK_EVERY_MS = 10 * 60_000;
/** Rowids looked at per step of the walk: a step scans at most this many, stale or not. */
const STEP = 1_024;

/** A walk under way: the rowid it has passed, where it ends, the stale count it answers for. */
interface Walk {
  after: number;
  upTo: number;
  stale: number;
}

/**
 * Forgets the index rows of entries no longer in the log (search-keeps-pruned-rows, version 19)
 * once they are `PURGE_SHARE` of the index: a walk over the index's rowids, in slices of about
 * `budgetMs` on the index's own file, each forgetting the rowids the log no longer holds. FTS5's
 * merges then rewrite the segments the tombstones went to (its delete-merge takes a level with a
 * tenth of its rows forgotten), and the walk's end takes the count it was started for off
 * `stale`.
 *
 * `db`: the index's connection (its file as `main`, the relay's attached as `log`); `logDb`: the
 * index thread's connection to the relay's file; `forget`: takes one rowid's rows out.
 */
export function createIndexPurge(db: Db, logDb: Db, forget: (rowid: number) => void) {
  const shares = db.prepare<[], { stale: number; live: number }>(
    `SELECT (SELECT stale FROM log.delivery_search_gone) AS stale,
       (SELECT coalesce(sum(n), 0) FROM log.delivery_counts) AS live`,
  );
  const lastRowid = db
    .prepare<[], number | null>('SELECT max(id) FROM main.delivery_search_docsize')
    .pluck();
  const staleIn = db
    .prepare<[number, number], number>(
      `SELECT s.id FROM main.delivery_search_docsize s
       WHERE s.id > ? AND s.id <= ?
         AND NOT EXISTS (SELECT 1 FROM log.deliveries d WHERE d.rowid = s.id)
       ORDER BY s.id`,
    )
    .pluck();
  const walked = logDb.prepare<[number]>(
    'UPDATE delivery_search_gone SET stale = max(0, stale - ?)',
  );

  let checkedAt = -Infinity;
  let walk: Walk | null = null;

  /** The stale count when a walk is due, or null. */
  const due = (): number | null => {
    const now = performance.now();
    if (now - checkedAt < CHECK_EVERY_MS) return null;
    checkedAt = now;
    const { stale, live } = shares.get()!;
    return stale >= PURGE_MIN_ROWS && stale >= PURGE_SHARE * (stale + live) ? stale : null;
  };

  const slice = unsyncedTransaction(
    db,
    (budgetMs: number, from: Walk): Walk => {
      const started = performance.now();
      const at = { ...from };
      while (at.after < at.upTo) {
        const to = Math.min(at.after + STEP, at.upTo);
        for (const rowid of staleIn.all(at.after, to)) forget(rowid);
        at.after = to;
        if (performance.now() - started >= budgetMs) break;
      }
      return at;
    },
    'purge',
  );

  return {
    /**
     * One slice of the walk, started when due; true while it has more to do. Once it ends, the
     * count it was started for comes off `stale`: every entry deleted before it began has had its
     * rows forgotten, or had none in this file (a migrated file's old index held them). Entries
     * deleted meanwhile count towards the next walk.
     */
    purgeSome(budgetMs: number): boolean {
      if (walk === null) {
        const stale = due();
        if (stale === null) return false;
        walk = { after: 0, upTo: lastRowid.get() ?? 0, stale };
      }
      walk = slice(budgetMs, walk);
      if (walk.after < walk.upTo) return true;
      const { stale } = walk;
      walk = null;
      walked.run(stale);
      return false;
    },
  };
}
