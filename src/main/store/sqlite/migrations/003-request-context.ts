import type Database from 'better-sqlite3';

/**
 * Every log entry keeps the request it came from (method, path, headers with credentials
 * redacted) and the event type derived when it was received. The request context sits in a
 * table of its own, as payloads do, so listing deliveries never reads header pages.
 */
export function up(db: Database.Database): void {
  db.exec(`
    ALTER TABLE deliveries ADD COLUMN event_type TEXT;
    CREATE INDEX deliveries_by_event_type ON deliveries (webhook_uid, event_type, id) WHERE event_type IS NOT NULL;
    ALTER TABLE webhooks ADD COLUMN event_type_path TEXT;

    CREATE TABLE request_contexts (
      delivery_id TEXT PRIMARY KEY,
      method TEXT NOT NULL,
      path TEXT NOT NULL,
      -- JSON array of [name, value] pairs, in the order received, names as sent.
      headers TEXT NOT NULL
    ) STRICT;
  `);
}
