/**
 * (b) The naive baseline: node:http + JSON.parse + one better-sqlite3 transaction per request
 * (WAL, synchronous=FULL — the same durability as the relay): dedupe check, delivery row with
 * its payload, then 202. Usage: naive-server.ts <data-dir>. Prints `{"url"}` when listening.
 */
import Database from 'better-sqlite3';
import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { onJsonBody, reply, serveBaseline } from './baseline-server.js';

const db = new Database(join(process.argv[2] ?? '.', 'naive.sqlite'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.exec(`CREATE TABLE IF NOT EXISTS deliveries (
  id TEXT PRIMARY KEY, identity TEXT NOT NULL UNIQUE, received_at INTEGER NOT NULL,
  size INTEGER NOT NULL, payload BLOB NOT NULL) STRICT`);
const find = db.prepare<[string], { id: string }>('SELECT id FROM deliveries WHERE identity = ?');
const insert = db.prepare(
  'INSERT INTO deliveries (id, identity, received_at, size, payload) VALUES (?, ?, ?, ?, ?)',
);
const accept = db.transaction((id: string, identity: string, body: Buffer) => {
  if (find.get(identity)) return;
  insert.run(id, identity, Date.now(), body.length, body);
});

serveBaseline(
  onJsonBody((req, res, body) => {
    const header = req.headers['x-service-delivery-id'];
    const identity =
      typeof header === 'string' ? header : createHash('sha256').update(body).digest('hex');
    const id = randomUUID();
    accept(id, identity, body);
    reply(res, 202, { delivery_id: id });
  }),
  () => void db.close(),
);
