import type Database from 'better-sqlite3';

/**
 * A deleted entry's index rows stay in the index file (its text matches nothing: a search joins
 * its hits with `deliveries`), instead of being queued to be forgotten. Forgetting a row leaves a
 * tombstone in the FTS5 segment that holds it, and every read of a segment with tombstones takes
 * a slower path: each hourly prune put one in the oldest, largest segment, and a common text's
 * count took 2.3–2.8 times as long (performance.md, eleventh and twelfth passes). The index thread
 * forgets such rows all at once, once they are a set share of the index (search-index-purge.ts),
 * and its merges then rewrite the segments that held them.
 *
 * `delivery_search_gone` keeps two numbers for it:
 * - `stale`: deleted entries that had been indexed (were no longer queued), rows not forgotten;
 * - `top_freed`: the highest rowid ever deleted. SQLite gives a new entry the highest rowid + 1,
 *   so a rowid comes back only once every entry above it is gone (the log's newest deleted): a
 *   new entry at or under `top_freed` may carry an old entry's rows, and those are queued to be
 *   forgotten first (a search skips a rowid queued so, dialect.ts). It starts at 0: the rows of
 *   entries deleted before this version were queued to be forgotten, before any new entry's.
 *
 * A payload dropped while its entry stays is still forgotten and indexed again (version 17).
 */
export function up(db: Database.Database): void {
  db.exec(`
    CREATE TABLE delivery_search_gone (
      stale INTEGER NOT NULL,
      top_freed INTEGER NOT NULL
    ) STRICT;
    INSERT INTO delivery_search_gone (stale, top_freed) VALUES (0, 0);

    DROP TRIGGER deliveries_search_forget;
    CREATE TRIGGER deliveries_search_forget AFTER DELETE ON deliveries BEGIN
      UPDATE delivery_search_gone SET
        stale = stale + NOT EXISTS (
          SELECT 1 FROM delivery_search_pending WHERE delivery_rowid = old.rowid),
        top_freed = max(top_freed, old.rowid);
      DELETE FROM delivery_search_pending WHERE delivery_rowid = old.rowid;
    END;

    CREATE TRIGGER deliveries_search_reused AFTER INSERT ON deliveries
    WHEN new.rowid <= (SELECT top_freed FROM delivery_search_gone) BEGIN
      INSERT INTO delivery_search_forget (delivery_rowid) VALUES (new.rowid);
    END;
  `);
}
