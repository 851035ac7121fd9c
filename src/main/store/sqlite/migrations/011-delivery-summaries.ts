import type Database from 'better-sqlite3';

/**
 * Version 11: each log entry's one-line summary (PRODUCT.md §22), derived when the delivery is
 * accepted from the payload the ingress already parsed. Searched with the rest of the entry: the
 * search index (version 4) takes it beside the event type, so no index is rebuilt; entries
 * indexed before it simply have none.
 */
export function up(db: Database.Database): void {
  db.exec('ALTER TABLE deliveries ADD COLUMN summary TEXT');
}
