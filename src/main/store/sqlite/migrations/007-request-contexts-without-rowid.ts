import type Database from 'better-sqlite3';

/**
 * `request_contexts` is keyed by delivery ID and only ever read by it, so it needs no rowid: as a
 * WITHOUT ROWID table each entry's request is one B-tree insert instead of two (table and key
 * index), which the accept path pays on every delivery (about 4 µs of ~12 in a measurement).
 */
export function up(db: Database.Database): void {
  db.exec(`
    CREATE TABLE request_contexts_by_id (
      delivery_id TEXT PRIMARY KEY,
      method TEXT NOT NULL,
      path TEXT NOT NULL,
      -- JSON array of [name, value] pairs, in the order received, names as sent.
      headers TEXT NOT NULL
    ) STRICT, WITHOUT ROWID;
    INSERT INTO request_contexts_by_id SELECT delivery_id, method, path, headers FROM request_contexts;
    DROP TABLE request_contexts;
    ALTER TABLE request_contexts_by_id RENAME TO request_contexts;
  `);
}
