import type Database from 'better-sqlite3';

/**
 * Version 15: the log's counts by webhook, minute and label, kept by triggers on `deliveries`,
 * so that totals, activity and volume add up minutes instead of counting entries (issue 28: at
 * a million entries counting took 0.4–3 s a read). Exact, not estimated: every insert, delete
 * (retention's included) and change of a counted column moves them in the same transaction. A
 * minute whose count falls to 0 is removed, so the table shrinks with retention. One writer
 * (the writer thread), so no shard column as on PostgreSQL.
 */
export function up(db: Database.Database): void {
  db.exec(`
    CREATE TABLE delivery_counts (
      webhook_uid TEXT NOT NULL,
      minute INTEGER NOT NULL,
      label TEXT NOT NULL,
      n INTEGER NOT NULL,
      PRIMARY KEY (webhook_uid, minute, label)
    ) STRICT, WITHOUT ROWID;

    INSERT INTO delivery_counts (webhook_uid, minute, label, n)
    SELECT webhook_uid, received_at / 60000, label, count(*) FROM deliveries
    GROUP BY 1, 2, 3;

    CREATE TRIGGER deliveries_count_insert AFTER INSERT ON deliveries BEGIN
      INSERT INTO delivery_counts (webhook_uid, minute, label, n)
      VALUES (new.webhook_uid, new.received_at / 60000, new.label, 1)
      ON CONFLICT (webhook_uid, minute, label) DO UPDATE SET n = n + 1;
    END;

    CREATE TRIGGER deliveries_count_delete AFTER DELETE ON deliveries BEGIN
      UPDATE delivery_counts SET n = n - 1
      WHERE webhook_uid = old.webhook_uid AND minute = old.received_at / 60000 AND label = old.label;
      DELETE FROM delivery_counts
      WHERE webhook_uid = old.webhook_uid AND minute = old.received_at / 60000 AND label = old.label
        AND n <= 0;
    END;

    -- Nothing updates these columns today; if something ever does, the counts follow.
    CREATE TRIGGER deliveries_count_update AFTER UPDATE OF webhook_uid, received_at, label
    ON deliveries BEGIN
      UPDATE delivery_counts SET n = n - 1
      WHERE webhook_uid = old.webhook_uid AND minute = old.received_at / 60000 AND label = old.label;
      DELETE FROM delivery_counts
      WHERE webhook_uid = old.webhook_uid AND minute = old.received_at / 60000 AND label = old.label
        AND n <= 0;
      INSERT INTO delivery_counts (webhook_uid, minute, label, n)
      VALUES (new.webhook_uid, new.received_at / 60000, new.label, 1)
      ON CONFLICT (webhook_uid, minute, label) DO UPDATE SET n = n + 1;
    END;
  `);
}
