import { performance } from 'node:perf_hooks';
import type { Db } from './db.js';
import type { IndexPacing, IndexRun } from '../search-indexer.js';
import { unsyncedTransaction } from './paced-slices.js';
import { neverWanted } from './writer-yield.js';
import { tracedTransaction } from './writer-trace.js';

/**
 * FTS5 merges its segments inside the commit that flushes a new one ('automerge', 4 by default):
 * every 64 leaf pages flushed, 64 pages times the index's levels of merging, at term granularity
 * (a common trigram's whole doclist at once). At 100,000 entries that made one in ten of the
 * busy 0.5 ms slices take 25-420 ms on the loaded benchmark machine, the write lock held for all
 * of it. So flushes never merge: the index merges in quiet slices of its own ('mergeSome'), and
 * only a level that reaches 'crisismerge' segments (FTS5's default, 16) is merged by the flush
 * that fills it, as FTS5 always does. A level holds at most 15 segments, so searches stay fast.
 */
const MERGING = { automerge: 0, crisismerge: 16 } as const;
/** Leaf pages per 'merge' step in a quiet slice: a step cannot be cut short. */
const MERGE_PAGES = 16;

/**
 * The writer thread: a commit waits about half a millisecond for the index behind a 1 KB payload,
 * and once the relay is quiet the index takes most of the thread (a delivery arriving then waits
 * one 5 ms slice at most, and the slices after it are busy ones). A 64 KB payload takes 4–6 ms to
 * tokenize and flush, the thread's whole time for several commits: while deliveries arrive, such
 * entries wait for a quiet moment (searches scan them meanwhile) and smaller ones go past them.
 */
export const SQLITE_PACING: IndexPacing = {
  busy: { ms: 0.5, share: 0.04, largestEntry: 8 * 1024 },
  behind: { ms: 0.5, share: 0.1, largestEntry: 8 * 1024 },
  idle: { ms: 5, share: 0.8 },
  // A light sender (5 a second, ~1 ms commits) leaves the thread idle 95 % of the time: the
  // index takes most of it, in slices a commit cuts short after the entry under way (lockWanted).
  light: { ms: 4, share: 0.75, largestEntry: 8 * 1024, below: 0.25 },
  // A sender's deliveries seconds apart are still a busy relay: the idle share waits for a lull.
  quietAfterMs: 2_000,
};

/**
 * The ingress's CPU for one delivery, counted into the load the index's light share follows
 * beside each commit's own time. A saturating sender's commits are short and the writer waits
 * for the main thread between them: counting commits alone, the ingress bench (autocannon, 50
 * connections) looked light, and the index's slices took the CPU its main thread needed (c 215
 * req/s against c0 836 in one round). The ingress bench's figure: 605 µs of CPU per 1 KB
 * request, the threads together (main 262); half a millisecond, so 500 deliveries a second count
 * as a full load.
 */
export const ACCEPT_MS_PER_DELIVERY = 0.5;

/**
 * What the index holds of each entry, for a `WHERE` on `d` (the deliveries table). The bytes are
 * UTF-8 (they parsed as JSON); CAST reads them as text without a copy in JS. The summary
 * (version 11) shares the event type's column, on a line of its own.
 */
export const INDEX_ROWS = `
  INSERT INTO delivery_search (rowid, id, identity, event_type, body)
  SELECT d.rowid, d.id, d.identity,
    CASE WHEN d.summary IS NULL THEN d.event_type
         ELSE coalesce(d.event_type, '') || char(10) || d.summary END,
    CAST(p.body AS TEXT)
  FROM deliveries d LEFT JOIN payloads p ON p.delivery_id = d.id`;

export type SearchIndex = ReturnType<typeof createSearchIndex>;

/**
 * Indexes queued log entries (see migration 004) into the trigram index. Each call is one
 * transaction that stops once `budgetMs` is spent (after at least one entry), so a burst of large
 * payloads never holds the database, or the event loop, for long.
 */
export function createSearchIndex(db: Db, lockWanted: () => boolean = neverWanted) {
  configureMerging(db);
  const queued = db.prepare<[number], { rowid: number }>(
    'SELECT delivery_rowid AS rowid FROM delivery_search_pending ORDER BY delivery_rowid LIMIT ?',
  );
  const index = db.prepare<[number]>(`${INDEX_ROWS} WHERE d.rowid = ?`);
  const dequeue = db.prepare<[number]>(
    'DELETE FROM delivery_search_pending WHERE delivery_rowid = ?',
  );
  // length() of a BLOB reads its size from the record header, not its overflow pages.
  const queuedUpTo = db.prepare<
    { after: number; largest: number; limit: number },
    { rowid: number }
  >(`
    SELECT q.delivery_rowid AS rowid FROM delivery_search_pending q
      JOIN deliveries d ON d.rowid = q.delivery_rowid
      LEFT JOIN payloads p ON p.delivery_id = d.id
    WHERE q.delivery_rowid > @after AND coalesce(length(p.body), 0) <= @largest
    ORDER BY q.delivery_rowid LIMIT @limit`);
  const lastQueued = db.prepare<[], { rowid: number | null }>(
    'SELECT max(delivery_rowid) AS rowid FROM delivery_search_pending',
  );
  const queuedAtOrBefore = db
    .prepare<[number], number>(
      'SELECT EXISTS (SELECT 1 FROM delivery_search_pending WHERE delivery_rowid <= ?)',
    )
    .pluck();
  const countQueued = db.prepare<[], { n: number }>(
    'SELECT count(*) AS n FROM delivery_search_pending',
  );

  /**
   * Where slices with a size limit go on from, so that none scans the entries it passed over
   * again: every entry still queued at or before it is too large for them. Slices without the
   * limit take the oldest entries first, these among them. (An entry queued again behind it, a
   * payload dropped from an indexed entry, waits for such a slice too.)
   */
  let passedUpTo = 0;
  const BATCH = 32;

  const indexSlice = tracedTransaction(
    db,
    'index',
    (budgetMs: number, largest: number | undefined): IndexRun => {
      const started = performance.now();
      const deferred = (): boolean => passedUpTo > 0 && queuedAtOrBefore.get(passedUpTo) === 1;
      let indexed = 0;
      for (;;) {
        const batch =
          largest === undefined
            ? queued.all(BATCH)
            : queuedUpTo.all({ after: passedUpTo, largest, limit: BATCH });
        for (const { rowid } of batch) {
          index.run(rowid);
          dequeue.run(rowid);
          indexed++;
          if (largest !== undefined) passedUpTo = rowid;
          // Someone waits for the write lock (writer-yield.ts): this slice ends here.
          if (performance.now() - started >= budgetMs || lockWanted()) {
            return { indexed, more: true, deferred: deferred() };
          }
        }
        if (batch.length < BATCH) {
          // The end of the queue: what is left after the last entry taken was all too large.
          if (largest !== undefined)
            passedUpTo = Math.max(passedUpTo, lastQueued.get()!.rowid ?? 0);
          return { indexed, more: false, deferred: deferred() };
        }
      }
    },
  );

  /**
   * Without an fsync of its own: an indexing transaction lost to a crash loses no delivery (it
   * dequeues what it indexes, so the entries stay queued), and the next accept commit's fsync
   * makes it durable with its own. Its fsync would be paid while holding the write lock.
   */
  const indexSome = (budgetMs: number, largestEntry?: number): IndexRun => {
    if (lockWanted()) return { indexed: 0, more: true, deferred: passedUpTo > 0 };
    db.pragma('synchronous = NORMAL');
    try {
      return indexSlice(budgetMs, largestEntry);
    } finally {
      db.pragma('synchronous = FULL');
    }
  };

  const merge = db.prepare(
    `INSERT INTO delivery_search (delivery_search, rank) VALUES ('merge', ${MERGE_PAGES})`,
  );
  const totalChanges = db.prepare<[], number>('SELECT total_changes()').pluck();
  const mergeSlice = unsyncedTransaction(
    db,
    (budgetMs: number): boolean => {
      const started = performance.now();
      for (;;) {
        const before = totalChanges.get()!;
        merge.run();
        // The command's own row counts as one change; a step that wrote pages counts more.
        if (totalChanges.get()! - before <= 1) return false;
        if (performance.now() - started >= budgetMs || lockWanted()) return true;
      }
    },
    'merge',
  );

  return {
    /** Indexes queued entries for about `budgetMs`; `more` when some are still queued. */
    indexSome,
    /**
     * Merges segments (levels of 4 or more, FTS5's 'usermerge') for about `budgetMs`, in steps of
     * `MERGE_PAGES`; true while there is more to merge.
     */
    mergeSome: (budgetMs: number): boolean => lockWanted() || mergeSlice(budgetMs),
    pending: (): number => countQueued.get()!.n,
  };
}

/** `MERGING`, written only when the index's own settings differ (once per file). */
function configureMerging(db: Db): void {
  const setting = db
    .prepare<[string], number>('SELECT v FROM delivery_search_config WHERE k = ?')
    .pluck();
  const due = Object.entries(MERGING).filter(([key, value]) => setting.get(key) !== value);
  if (due.length === 0) return;
  db.transaction(() => {
    // FTS5 takes a setting's value as an integer literal only (a bound number arrives as REAL).
    for (const [key, value] of due) {
      db.exec(`INSERT INTO delivery_search (delivery_search, rank) VALUES ('${key}', ${value})`);
    }
  })();
}
