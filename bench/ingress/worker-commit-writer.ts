/**
 * (e2)'s writer thread: one transaction per batch (dedupe check, delivery row with its payload),
 * then the batch's rows go back as the answer. Its data file is the worker's `workerData`.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

export interface Row {
  id: string;
  identity: string;
  receivedAt: number;
  body: Uint8Array;
}

const db = new Database(workerData as string);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.exec(`CREATE TABLE IF NOT EXISTS deliveries (
  id TEXT PRIMARY KEY, identity TEXT NOT NULL UNIQUE, received_at INTEGER NOT NULL,
  size INTEGER NOT NULL, payload BLOB NOT NULL) STRICT`);
const find = db.prepare<[string], { id: string }>('SELECT id FROM deliveries WHERE identity = ?');
const insert = db.prepare(
  'INSERT INTO deliveries (id, identity, received_at, size, payload) VALUES (?, ?, ?, ?, ?)',
);
const commit = db.transaction((rows: Row[]) => {
  for (const row of rows) {
    if (find.get(row.identity)) continue;
    insert.run(row.id, row.identity, row.receivedAt, row.body.length, row.body);
  }
});

parentPort!.on('message', (rows: Row[]) => {
  commit.immediate(rows);
  parentPort!.postMessage(rows.length);
});
