import type Database from 'better-sqlite3';

/**
 * The delivery log at scale (PRODUCT.md §14) and alarms.
 *
 * Search: a trigram FTS5 index (substring search) over each log entry's ID, identity, event type
 * and payload text. Contentless, so payload text is not stored a second time; `contentless_delete`
 * lets a pruned delivery leave the index. Rows are keyed by the deliveries table's rowid (Hookport
 * never runs VACUUM, which could renumber it).
 *
 * Tokenizing a payload costs about 20 times what writing it does (measured: ~0.2 ms per 1 KB
 * inside a small transaction), so the accept transaction does not index: a trigger only queues the
 * new entry's rowid, and the search indexer (search-index.ts) indexes the queue in the background.
 * Searches also scan what is still queued, so a result never lags behind the log. These triggers
 * are the only thing keeping the index in step: any writer (this thread or another) that inserts
 * or deletes deliveries and payloads keeps it right without knowing about it.
 */
export function up(db: Database.Database): void {
  db.exec(`
    CREATE VIRTUAL TABLE delivery_search USING fts5(
      id, identity, event_type, body,
      content = '', contentless_delete = 1, tokenize = 'trigram'
    );

    CREATE TABLE delivery_search_pending (delivery_rowid INTEGER PRIMARY KEY) STRICT;
    INSERT INTO delivery_search_pending (delivery_rowid) SELECT rowid FROM deliveries;

    CREATE TRIGGER deliveries_search_queue AFTER INSERT ON deliveries BEGIN
      INSERT INTO delivery_search_pending (delivery_rowid) VALUES (new.rowid);
    END;

    CREATE TRIGGER deliveries_search_forget AFTER DELETE ON deliveries BEGIN
      DELETE FROM delivery_search WHERE rowid = old.rowid;
      DELETE FROM delivery_search_pending WHERE delivery_rowid = old.rowid;
    END;

    -- A payload dropped while its entry stays: index the entry again, without the text.
    CREATE TRIGGER payloads_search_forget AFTER DELETE ON payloads
    WHEN EXISTS (SELECT 1 FROM deliveries WHERE id = old.delivery_id) BEGIN
      DELETE FROM delivery_search WHERE rowid = (SELECT rowid FROM deliveries WHERE id = old.delivery_id);
      INSERT OR IGNORE INTO delivery_search_pending (delivery_rowid)
        SELECT rowid FROM deliveries WHERE id = old.delivery_id;
    END;

    -- Filters and exact totals read only the index: label and time sit beside the ID.
    DROP INDEX deliveries_by_webhook;
    CREATE INDEX deliveries_by_webhook ON deliveries (webhook_uid, id, label, received_at);

    -- Alarms: per-webhook settings, and the episodes in progress (a row per raised alarm,
    -- deleted when it recovers), kept so that a restart neither repeats nor forgets one.
    -- cadence_set_at: when the expected cadence was last set, the earliest a quiet spell counts from.
    CREATE TABLE webhook_alarm_settings (
      webhook_uid TEXT PRIMARY KEY,
      expected_every_minutes INTEGER,
      cadence_set_at INTEGER NOT NULL,
      auth_failure_streak INTEGER
    ) STRICT;

    CREATE TABLE webhook_alarms (
      webhook_uid TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('quiet', 'auth')),
      since INTEGER NOT NULL,
      PRIMARY KEY (webhook_uid, kind)
    ) STRICT;

    -- How a factory is told about alarms: JSON ({"kind":"command",…} or {"kind":"http",…}); null: not at all.
    ALTER TABLE factories ADD COLUMN alarm_notification TEXT;
  `);
}
