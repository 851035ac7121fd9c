import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { PAGE_CACHE_KIB, type Db } from './db.js';
import { indexFileOf } from './search-index-file.js';
import { createLegacyIndexDrop } from './legacy-index-drop.js';
import { createIndexPurge } from './search-index-purge.js';
import type { IndexPacing, IndexRun } from '../search-indexer.js';
import { unsyncedTransaction } from './unsynced-transaction.js';
import { neverWanted } from './writer-yield.js';
import { tracedTransaction } from './writer-trace.js';

/**
 * FTS5 merges its segments inside the commit that flushes a new one ('automerge', 4 by default):
 * every 64 leaf pages flushed, 64 pages times the index's levels of merging, at term granularity
 * (a common trigram's whole doclist at once). At 100,000 entries that made one in ten of the
 * busy 0.5 ms slices take 25-420 ms on the loaded benchmark machine, the write lock held for all
 * of it. So flushes never merge: the index merges in quiet slices of its own ('mergeSome').
 *
 * A level that reaches 'crisismerge' segments is still merged whole by the flush that fills it,
 * whatever its size: FTS5's levels count segments, not bytes, so the level holding a large log's
 * biggest segments also takes small ones from below. At FTS5's default of 16, a restart's
 * catch-up (one segment a slice, no quiet slice to merge in) filled the level holding a
 * two-million entry index, and one slice rewrote all of it: 219 s, 6.7 GB through the WAL, the
 * catch-up and the kept totals stopped meanwhile. At 64 a level fills after 64 times as many
 * slices as the one below it (the third level after 262,144), so a catch-up never gets there,
 * and the quiet slices' merges (levels of 4 or more) keep every level short once caught up.
 */
const MERGING = { automerge: 0, crisismerge: 64 } as const;
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
 * (version 11) shares the event type's column, on a line of its own. `log`: the relay's tables'
 * schema as the connection sees it (its own file's connection: main).
 */
function indexedColumns(log: string): string {
  return `
  SELECT d.rowid, d.id, d.identity,
    CASE WHEN d.summary IS NULL THEN d.event_type
         ELSE coalesce(d.event_type, '') || char(10) || d.summary END,
    CAST(p.body AS TEXT)
  FROM ${log}.deliveries d LEFT JOIN ${log}.payloads p ON p.delivery_id = d.id`;
}

const INDEX_COLUMNS = '(rowid, id, identity, event_type, body)';

/**
 * Many entries' rows in one statement, for building an index in bulk (`WHERE` on `d`). `index`:
 * the index's schema as the connection sees it.
 */
export function indexRows(index: string, log = 'main'): string {
  return `INSERT INTO ${index}.delivery_search ${INDEX_COLUMNS} ${indexedColumns(log)}`;
}

export type SearchIndex = ReturnType<typeof createSearchIndex>;

/** Entries per read of a queue; a slice stops within a batch once its budget is spent. */
const BATCH = 32;

/**
 * The index's own connection: its file as `main`, the relay's attached as `log` (read there,
 * never written). Its transactions are DEFERRED: they write this file only, so they take only
 * its write lock, never the one accept commits need. synchronous=FULL: a slice's rows are on disk
 * before the queue that listed them forgets them (on the relay's file, a transaction later).
 */
function openIndexConnection(logFile: string): Db {
  const db = new Database(indexFileOf(logFile));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  db.prepare('ATTACH DATABASE ? AS log').run(logFile);
  return db;
}

/**
 * Indexes queued log entries (see migrations 004 and 017) into the index file. Each slice is one
 * transaction on the index file that stops once `budgetMs` is spent (after at least one entry),
 * then one short transaction on the relay's file that takes what it did off the queues. `logDb`:
 * a connection to the relay's file (the index thread's own); `lockWanted` ends a slice early for
 * someone waiting for that file's lock (only the dequeues take it).
 *
 * Each slice first forgets every rowid its snapshot has queued in `delivery_search_forget` (their
 * rows go), and only then indexes: a new entry that took a pruned entry's rowid is indexed after
 * the old one's rows went, never beside them. The dequeues come after the slice's commit, on the
 * relay's file: a forgetting is dequeued by its `seq` (one queued since is a row of its own), and
 * an indexed entry stays queued if its rowid was queued to be forgotten since (its payload
 * dropped, or the rowid given to a new entry: versions 17 and 19). A deleted entry's rows stay
 * until a purge (search-index-purge.ts). A crash between the two leaves the entries queued:
 * indexed again, a rowid's rows twice, which a search's `rowid IN` counts once.
 *
 * A migrated file's queued entries within the rebuild's range (the restart's queue at the
 * upgrade: 50,000 at a million entries) are indexed from the queue like any other, not left
 * queued until the rebuild reaches them: every search scans the queue row by row, and the rebuild
 * took 19.5 minutes to reach them. Each is marked in `delivery_search_ahead` in the same
 * transaction as its rows; the mark means "this rowid's current text is in the index file":
 * - searches no longer read the old index's rows for it (dialect.ts), which may be another
 *   entry's (a reused rowid) or text since dropped;
 * - the rebuild passes it by, so its rows are never written twice, and a later forgetting
 *   (which removes the mark with the rows) can never be left with a copy behind it;
 * - after a crash between the slice's commit and its dequeue, the queue's next pass takes it
 *   off the queue without indexing it again.
 * The marks go once the rebuild has passed the whole range, in the same transaction.
 */
export function createSearchIndex(logDb: Db, lockWanted: () => boolean = neverWanted) {
  const db = openIndexConnection(logDb.name);
  configureMerging(db);
  const marks = db.prepare<[], { rebuilt: number; legacy: number }>(
    `SELECT (SELECT upto FROM main.delivery_search_rebuilt) AS rebuilt,
       (SELECT upto FROM log.delivery_search_legacy) AS legacy`,
  );
  const forgettable = db.prepare<[number, number], { seq: number; rowid: number }>(
    `SELECT seq, delivery_rowid AS rowid FROM log.delivery_search_forget WHERE seq > ?
       ORDER BY seq LIMIT ?`,
  );
  const forgetRows = db.prepare<[number]>('DELETE FROM main.delivery_search WHERE rowid = ?');
  const unmarkAhead = db.prepare<[number]>(
    'DELETE FROM main.delivery_search_ahead WHERE delivery_rowid = ?',
  );
  const markAhead = db.prepare<[number]>(
    'INSERT OR IGNORE INTO main.delivery_search_ahead (delivery_rowid) VALUES (?)',
  );
  const forget = (rowid: number): void => {
    forgetRows.run(rowid);
    unmarkAhead.run(rowid);
  };
  const clearAhead = db.prepare('DELETE FROM main.delivery_search_ahead');
  const isAhead = (rowid: string): string =>
    `EXISTS (SELECT 1 FROM main.delivery_search_ahead a WHERE a.delivery_rowid = ${rowid})`;
  const dequeueForgotten = logDb.prepare<[string]>(
    'DELETE FROM delivery_search_forget WHERE seq IN (SELECT value FROM json_each(?))',
  );
  const queued = db.prepare<
    { after: number; largest: number; limit: number },
    { rowid: number; ahead: number }
  >(`
    SELECT q.delivery_rowid AS rowid, ${isAhead('q.delivery_rowid')} AS ahead
    FROM log.delivery_search_pending q
      JOIN log.deliveries d ON d.rowid = q.delivery_rowid
      LEFT JOIN log.payloads p ON p.delivery_id = d.id
    WHERE q.delivery_rowid > @after AND coalesce(length(p.body), 0) <= @largest
    ORDER BY q.delivery_rowid LIMIT @limit`);
  const rebuildable = db.prepare<
    { after: number; upto: number; limit: number },
    { rowid: number; ahead: number }
  >(`
    SELECT d.rowid AS rowid, ${isAhead('d.rowid')} AS ahead FROM log.deliveries d
    WHERE d.rowid > @after AND d.rowid <= @upto
    ORDER BY d.rowid LIMIT @limit`);
  const rebuiltUpTo = db.prepare<[number]>('UPDATE main.delivery_search_rebuilt SET upto = ?');
  // A write to this file first: the transaction takes its write lock now, waiting for another
  // writer of it (a test's indexer beside the relay's), never the relay's file's lock; a read
  // first would get SQLITE_BUSY at its first write instead of waiting.
  const lockIndexFile = db.prepare('UPDATE main.delivery_search_rebuilt SET upto = upto WHERE 0');
  // One entry's rows read, then written with VALUES: an `INSERT … SELECT` may write several rows,
  // so it opens a statement savepoint, and FTS5 flushes what it holds at every savepoint. Each
  // entry was a segment of its own, and every 16th flush a merge (one in four thousand a merge of
  // the level above, and so on up); a slice's entries are now one segment, written at its commit.
  const entryRow = db
    .prepare<[number], unknown[]>(`${indexedColumns('log')} WHERE d.rowid = ?`)
    .raw();
  const insertRow = db.prepare<unknown[]>(
    `INSERT INTO main.delivery_search ${INDEX_COLUMNS} VALUES (?, ?, ?, ?, ?)`,
  );
  const indexEntry = (rowid: number): void => {
    const row = entryRow.get(rowid);
    if (row) insertRow.run(...row);
  };
  const dequeue = logDb.prepare<[string]>(`
    DELETE FROM delivery_search_pending WHERE delivery_rowid IN (SELECT value FROM json_each(?))
      AND delivery_rowid NOT IN (SELECT delivery_rowid FROM delivery_search_forget)`);
  const queuedAtOrBefore = logDb
    .prepare<[number], number>(
      'SELECT EXISTS (SELECT 1 FROM delivery_search_pending WHERE delivery_rowid <= ?)',
    )
    .pluck();
  const lastQueued = db.prepare<[], { rowid: number | null }>(
    'SELECT max(delivery_rowid) AS rowid FROM log.delivery_search_pending',
  );
  const countQueued = db.prepare<[], { n: number }>(
    `SELECT (SELECT count(*) FROM log.delivery_search_pending)
       + (SELECT count(*) FROM log.delivery_search_forget)
       + max(0, (SELECT upto FROM log.delivery_search_legacy)
           - (SELECT upto FROM main.delivery_search_rebuilt)) AS n`,
  );
  const dequeueOnLog = (statement: Database.Statement<[string]>, rowids: number[]): void => {
    if (rowids.length === 0) return;
    logDb.pragma('synchronous = NORMAL');
    try {
      logDb.transaction(() => statement.run(JSON.stringify(rowids)))();
    } finally {
      logDb.pragma('synchronous = FULL');
    }
  };

  /** See the version before 017: where size-limited slices go on from. */
  let passedUpTo = 0;

  type Slice = { more: boolean; forgotten: number[]; taken: number[]; indexed: number };
  const indexSlice = tracedTransaction(
    db,
    'index',
    (budgetMs: number, largest: number | undefined): Slice => {
      lockIndexFile.run();
      const started = performance.now();
      const spent = (): boolean => performance.now() - started >= budgetMs || lockWanted();
      const forgotten: number[] = [];
      const taken: number[] = [];
      let indexed = 0;
      const done = (more: boolean): Slice => ({ more, forgotten, taken, indexed });
      for (let after = 0; ;) {
        const batch = forgettable.all(after, BATCH);
        for (const { seq, rowid } of batch) {
          forget(rowid);
          forgotten.push(seq);
          after = seq;
        }
        if (batch.length > 0 && spent()) return done(true);
        if (batch.length < BATCH) break;
      }
      const { rebuilt, legacy } = marks.get()!;
      let upTo = rebuilt;
      for (let after = largest === undefined ? 0 : passedUpTo; ;) {
        const batch = queued.all({
          after,
          largest: largest ?? Number.MAX_SAFE_INTEGER,
          limit: BATCH,
        });
        for (const { rowid, ahead } of batch) {
          // Marked: indexed by a slice whose dequeue never ran (a crash); taken off the queue only.
          if (ahead === 0) {
            indexEntry(rowid);
            indexed++;
            if (rowid > rebuilt && rowid <= legacy) markAhead.run(rowid);
          }
          taken.push(rowid);
          after = rowid;
          if (largest !== undefined) passedUpTo = rowid;
          if (spent()) return done(true);
        }
        if (batch.length < BATCH) break;
      }
      if (largest !== undefined) passedUpTo = Math.max(passedUpTo, lastQueued.get()!.rowid ?? 0);
      // A migrated file's entries (migration 017), oldest first, while its old index answers.
      while (upTo < legacy) {
        const batch = rebuildable.all({ after: upTo, upto: legacy, limit: BATCH });
        const end = batch.length < BATCH ? legacy : batch[batch.length - 1]!.rowid;
        for (const { rowid, ahead } of batch) {
          if (ahead === 0) {
            indexEntry(rowid);
            indexed++;
          }
          taken.push(rowid);
          if (spent()) {
            rebuiltUpTo.run(rowid);
            return done(true);
          }
        }
        upTo = end;
        rebuiltUpTo.run(upTo);
      }
      // The rebuild ended in this slice: its marks go with it (none is made once it is done).
      if (rebuilt < legacy) clearAhead.run();
      return done(false);
    },
  );

  const indexSome = (budgetMs: number, largestEntry?: number): IndexRun => {
    if (lockWanted()) return { indexed: 0, more: true, deferred: passedUpTo > 0 };
    const { more, forgotten, taken, indexed } = indexSlice(budgetMs, largestEntry);
    dequeueOnLog(dequeueForgotten, forgotten);
    dequeueOnLog(dequeue, taken);
    const deferred = passedUpTo > 0 && queuedAtOrBefore.get(passedUpTo) === 1;
    return { indexed, more, deferred, forgotten: forgotten.length };
  };

  const legacyDrop = createLegacyIndexDrop(logDb, () => marks.get()!.rebuilt);
  const purge = createIndexPurge(db, logDb, forget);

  const merge = db.prepare(
    `INSERT INTO main.delivery_search (delivery_search, rank) VALUES ('merge', ${MERGE_PAGES})`,
  );
  const totalChanges = db.prepare<[], number>('SELECT total_changes()').pluck();
  const mergeSlice = unsyncedTransaction(
    db,
    (budgetMs: number): boolean => {
      lockIndexFile.run();
      const started = performance.now();
      for (;;) {
        const before = totalChanges.get()!;
        merge.run();
        // The command's own row counts as one change; a step that wrote pages counts more.
        if (totalChanges.get()! - before <= 1) return false;
        if (performance.now() - started >= budgetMs) return true;
      }
    },
    'merge',
  );

  return {
    /** Forgets and indexes queued entries for about `budgetMs`; `more` when some are still queued. */
    indexSome,
    /**
     * Merges segments (levels of 4 or more, FTS5's 'usermerge') for about `budgetMs`, in steps of
     * `MERGE_PAGES`; true while there is more to merge. Only the index file's lock is held. First,
     * when they have become a share of the index, deleted entries' rows are forgotten
     * (search-index-purge.ts), so that the merges drop them.
     * Once merged, a migrated file's old index is given back, a slice a call (legacy-index-drop.ts:
     * the relay file's lock, for a bounded number of rows).
     */
    mergeSome: (budgetMs: number): boolean =>
      purge.purgeSome(budgetMs) || mergeSlice(budgetMs) || legacyDrop.dropSome().more,
    /** Entries queued to be indexed or forgotten, and a migrated file's rowids left to rebuild. */
    pending: (): number => countQueued.get()!.n,
    /** One slice of giving back a migrated file's old index (see `mergeSome`). */
    dropLegacySome: () => legacyDrop.dropSome(),
    close: (): void => {
      legacyDrop.close();
      db.close();
    },
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
