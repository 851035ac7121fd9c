import type Database from 'better-sqlite3';
import { encodeHeaderLines } from '../header-lines.js';

/**
 * `request_contexts` is keyed by delivery ID and only ever read by it, so it needs no rowid: as a
 * WITHOUT ROWID table each entry's request is one B-tree insert instead of two (table and key
 * index). Its headers become `Name: value` lines (store/header-lines.ts) instead of JSON pairs.
 * Both are costs the accept path pays on every delivery.
 */
export function up(db: Database.Database): void {
  db.exec(`
    CREATE TABLE request_contexts_by_id (
      delivery_id TEXT PRIMARY KEY,
      method TEXT NOT NULL,
      path TEXT NOT NULL,
      -- One "Name: value" line per header, in the order received, names as sent.
      headers TEXT NOT NULL
    ) STRICT, WITHOUT ROWID;
  `);
  // Read in pages: a statement cannot run while another one's rows are being iterated.
  const page = db.prepare<
    [string],
    { delivery_id: string; method: string; path: string; headers: string }
  >(
    'SELECT delivery_id, method, path, headers FROM request_contexts WHERE delivery_id > ? ORDER BY delivery_id LIMIT 1000',
  );
  const insert = db.prepare('INSERT INTO request_contexts_by_id VALUES (?, ?, ?, ?)');
  for (let rows = page.all(''); rows.length > 0; rows = page.all(rows.at(-1)!.delivery_id)) {
    for (const row of rows) {
      const pairs = JSON.parse(row.headers) as Array<[string, string]>;
      insert.run(row.delivery_id, row.method, row.path, encodeHeaderLines(pairs));
    }
  }
  db.exec(`
    DROP TABLE request_contexts;
    ALTER TABLE request_contexts_by_id RENAME TO request_contexts;
  `);
}
