/**
 * (b) The naive baseline: node:http + JSON.parse + one better-sqlite3 transaction per request
 * (WAL, synchronous=FULL — the same durability as the relay): dedupe check, delivery row with
 * its payload, then 202. Usage: naive-server.ts <data-dir>. Prints `{"url"}` when listening.
 */
import Database from 'better-sqlite3';
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

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

const reply = (res: ServerResponse, status: number, value: unknown): void => {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
};

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    try {
      JSON.parse(body.toString('utf8'));
    } catch {
      return reply(res, 400, { error: 'invalid JSON' });
    }
    const header = req.headers['x-service-delivery-id'];
    const identity =
      typeof header === 'string' ? header : createHash('sha256').update(body).digest('hex');
    const id = randomUUID();
    accept(id, identity, body);
    reply(res, 202, { delivery_id: id });
  });
});
server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
process.on('message', (message) => {
  if (message === 'rss') process.send?.({ rss: process.memoryUsage().rss });
});
process.on('SIGTERM', () =>
  server.close(() => {
    db.close();
    process.exit(0);
  }),
);
// The benchmark that started this server is gone (killed): no server outlives it.
process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
