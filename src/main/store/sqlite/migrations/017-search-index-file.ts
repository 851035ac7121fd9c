import type Database from 'better-sqlite3';

/**
 * The trigram index leaves the relay's file for one of its own (search-index-file.ts), written by
 * its own connection on its own thread: none of its transactions (index slices, FTS5's merges, a
 * pruned entry's tombstones) takes the write lock that accept commits need (WAL locks are per
 * file). Triggers cannot write another file's tables, so this file keeps two queues: new entries
 * (`delivery_search_pending`, as since version 4) and rowids whose index rows must go
 * (`delivery_search_forget`); the index thread empties both. A search never counts an index row
 * whose rowid is still queued to be forgotten (its entry gone, its payload dropped, or its rowid
 * given to a new entry).
 *
 * A file that already holds an index (version 4's `delivery_search`) keeps it, as it is: dropping
 * a multi-GB FTS5 table here would hold the start for minutes. It answers searches for the
 * entries up to `delivery_search_legacy.upto` (the newest rowid now) until the new file's index
 * has been rebuilt past them (its own mark, `delivery_search_rebuilt`). It is never written again
 * (a prune writes no tombstones into this file): a search joins its hits with `deliveries`, so a
 * pruned entry's rows match nothing, and it skips the rowids queued to be indexed (a payload
 * dropped, a rowid given to a new entry), which the queue's scan answers for. On a new (or empty)
 * file the mark is 0: it answers for nothing. Dropping its tables once rebuilt is left to a later
 * version (in paced slices: one DROP of gigabytes holds the file's write lock for long).
 */
export function up(db: Database.Database): void {
  db.exec(`
    DROP TRIGGER deliveries_search_forget;
    DROP TRIGGER payloads_search_forget;

    -- One row per forgetting (seq): a rowid forgotten again while the index thread forgets it
    -- the first time is a row of its own, which that thread's dequeue leaves.
    CREATE TABLE delivery_search_forget (
      seq INTEGER PRIMARY KEY,
      delivery_rowid INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX delivery_search_forget_by_rowid ON delivery_search_forget (delivery_rowid);
    CREATE TABLE delivery_search_legacy (upto INTEGER NOT NULL) STRICT;
    INSERT INTO delivery_search_legacy (upto) SELECT coalesce(max(rowid), 0) FROM deliveries;

    CREATE TRIGGER deliveries_search_forget AFTER DELETE ON deliveries BEGIN
      DELETE FROM delivery_search_pending WHERE delivery_rowid = old.rowid;
      INSERT INTO delivery_search_forget (delivery_rowid) VALUES (old.rowid);
    END;

    -- A payload dropped while its entry stays: index the entry again, without the text.
    CREATE TRIGGER payloads_search_forget AFTER DELETE ON payloads
    WHEN EXISTS (SELECT 1 FROM deliveries WHERE id = old.delivery_id) BEGIN
      INSERT INTO delivery_search_forget (delivery_rowid)
        SELECT rowid FROM deliveries WHERE id = old.delivery_id;
      INSERT OR IGNORE INTO delivery_search_pending (delivery_rowid)
        SELECT rowid FROM deliveries WHERE id = old.delivery_id;
    END;
  `);
}
