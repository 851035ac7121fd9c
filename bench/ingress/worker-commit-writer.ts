/**
 * (e2)'s writer thread: one transaction per batch writing what the relay writes for an accepted
 * delivery, in tables of the same shape (a log row, its payload, the dedupe key), then the
 * batch's answers go back. Its data file is the worker's `workerData`.
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
db.pragma('cache_size = -2000');
db.exec(`
  CREATE TABLE IF NOT EXISTS deliveries (
    id TEXT PRIMARY KEY, webhook_uid TEXT NOT NULL, label TEXT NOT NULL, size INTEGER NOT NULL,
    received_at INTEGER NOT NULL, identity TEXT, duplicate_of TEXT) STRICT;
  CREATE INDEX IF NOT EXISTS deliveries_by_webhook ON deliveries (webhook_uid, id);
  CREATE INDEX IF NOT EXISTS deliveries_by_time ON deliveries (received_at);
  CREATE TABLE IF NOT EXISTS payloads (delivery_id TEXT PRIMARY KEY, body BLOB NOT NULL) STRICT;
  CREATE TABLE IF NOT EXISTS dedupe_keys (
    webhook_uid TEXT NOT NULL, identity TEXT NOT NULL, delivery_id TEXT NOT NULL,
    accepted_at INTEGER NOT NULL, PRIMARY KEY (webhook_uid, identity)) STRICT, WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS dedupe_keys_by_age ON dedupe_keys (accepted_at);`);
const WEBHOOK = 'wh_e2';
const findKey = db.prepare<[string, string], { delivery_id: string }>(
  'SELECT delivery_id FROM dedupe_keys WHERE webhook_uid = ? AND identity = ?',
);
const insertKey = db.prepare(
  'INSERT INTO dedupe_keys (webhook_uid, identity, delivery_id, accepted_at) VALUES (?, ?, ?, ?)',
);
const insertDelivery = db.prepare(
  'INSERT INTO deliveries (id, webhook_uid, label, size, received_at, identity, duplicate_of) VALUES (?, ?, ?, ?, ?, ?, ?)',
);
const insertPayload = db.prepare('INSERT INTO payloads (delivery_id, body) VALUES (?, ?)');
const commit = db.transaction((rows: Row[]) => {
  for (const row of rows) {
    const previous = findKey.get(WEBHOOK, row.identity);
    const label = previous ? 'Duplicate' : 'Accepted';
    insertDelivery.run(
      row.id,
      WEBHOOK,
      label,
      row.body.length,
      row.receivedAt,
      row.identity,
      previous?.delivery_id ?? null,
    );
    if (previous) continue;
    insertKey.run(WEBHOOK, row.identity, row.id, row.receivedAt);
    insertPayload.run(row.id, row.body);
  }
});

parentPort!.on('message', (rows: Row[]) => {
  commit.immediate(rows);
  parentPort!.postMessage(rows.length);
});
