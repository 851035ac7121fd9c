import Database from 'better-sqlite3';
import type { Db } from './db.js';
import { fileBeside } from './file-beside.js';
import { ownerOnly } from './owner-only.js';

/** The schema the relay's connections see the index file under (`search.delivery_search`). */
export const INDEX_SCHEMA = 'search';

/**
 * The search index's own file, beside the relay's: `hookport.sqlite` → `hookport.search.sqlite`
 * (with its own -wal and -shm). It holds only what can be rebuilt from the relay's file.
 */
export const indexFileOf = (file: string): string => fileBeside(file, 'search');

/**
 * Creates the index file's tables if they are missing. `delivery_search_rebuilt`: how far the
 * entries a migrated file's old index answers for (migration 017) have been indexed here.
 * `delivery_search_ahead`: entries within the rebuild's range indexed here from the queue before
 * the rebuild reached them (search-index.ts), with their current text: the old index no longer
 * answers for them, and the rebuild passes them by. Written in the same transactions as their
 * rows, so a crash never leaves one without the other.
 */
export function prepareIndexFile(file: string): void {
  const indexFile = indexFileOf(file);
  ownerOnly(indexFile);
  const db = new Database(indexFile);
  try {
    db.pragma('journal_mode = WAL');
    db.exec(`
      CREATE VIRTUAL TABLE IF NOT EXISTS delivery_search USING fts5(
        id, identity, event_type, body,
        content = '', contentless_delete = 1, tokenize = 'trigram'
      );
      CREATE TABLE IF NOT EXISTS delivery_search_rebuilt (upto INTEGER NOT NULL) STRICT;
      CREATE TABLE IF NOT EXISTS delivery_search_ahead (delivery_rowid INTEGER PRIMARY KEY) STRICT;
      INSERT INTO delivery_search_rebuilt (upto)
        SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM delivery_search_rebuilt);
    `);
  } finally {
    db.close();
  }
}

/**
 * Attaches the index file to a connection of the relay's file, for searches. The index thread
 * alone writes it; this connection's write transactions lock the relay's file only (db.ts).
 */
export function attachIndexFile(db: Db, file: string): void {
  db.prepare(`ATTACH DATABASE ? AS ${INDEX_SCHEMA}`).run(indexFileOf(file));
}
