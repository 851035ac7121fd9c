import type Database from 'better-sqlite3';

/**
 * The tester's loop (PRODUCT.md §15): every attempt to forward a stored delivery to a handler,
 * and per (webhook, URL) the last delivery `hookport forward` delivered there, so a forwarder
 * restarted anywhere continues after it. Cursors live apart from attempts: retention prunes
 * attempts with their deliveries but must never move a forwarder's place back.
 * Runs also keep the last HTTP status their executor's URL answered, and are found by the run
 * they re-run.
 */
export function up(db: Database.Database): void {
  db.exec(`
    CREATE TABLE forward_attempts (
      id TEXT PRIMARY KEY,
      delivery_id TEXT NOT NULL,
      webhook_uid TEXT NOT NULL,
      url TEXT NOT NULL,
      at INTEGER NOT NULL,
      status INTEGER,
      -- JSON [name, value] pairs, credential values redacted.
      response_headers TEXT NOT NULL,
      response_body BLOB NOT NULL,
      body_truncated INTEGER NOT NULL,
      duration_ms INTEGER NOT NULL,
      error TEXT,
      -- The edited payload sent instead of the stored bytes; NULL when those went out.
      sent_body BLOB,
      signed INTEGER NOT NULL,
      request_headers TEXT NOT NULL,
      forwarder INTEGER NOT NULL,
      delivered INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX forward_attempts_by_delivery ON forward_attempts (delivery_id, id);

    CREATE TABLE forward_cursors (
      webhook_uid TEXT NOT NULL,
      url TEXT NOT NULL,
      delivery_id TEXT NOT NULL,
      updated_at INTEGER NOT NULL,
      PRIMARY KEY (webhook_uid, url)
    ) STRICT, WITHOUT ROWID;

    ALTER TABLE runs ADD COLUMN http_status INTEGER;
    -- "Re-run is not offered twice": a run's re-runs are looked up by the run they repeat.
    CREATE INDEX runs_by_rerun_of ON runs (rerun_of) WHERE rerun_of IS NOT NULL;
  `);
}
