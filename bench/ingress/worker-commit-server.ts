/**
 * (e2) The worker-thread group-commit baseline: node:http + JSON.parse + an identity, with the
 * SQLite writes (WAL, synchronous=FULL, as the relay) on a worker thread: whatever arrives while
 * one batch commits forms the next, and each request is answered 202 once its batch is durable.
 * What the relay's accept path would cost with nothing else of the relay around it.
 * Usage: worker-commit-server.mjs <data-dir> (its thread, worker-commit-writer.js, beside it).
 * Prints `{"url"}` when listening.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Row } from './worker-commit-writer.js';

const here = import.meta.url;
const writer = new Worker(new URL('./worker-commit-writer.js', here), {
  workerData: join(process.argv[2] ?? '.', 'e2.sqlite'),
});

const reply = (res: ServerResponse, status: number, value: unknown): void => {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
};

let queue: Array<{ row: Row; res: ServerResponse }> = [];
let committing: Array<{ row: Row; res: ServerResponse }> | null = null;
const flush = (): void => {
  if (committing || queue.length === 0) return;
  committing = queue;
  queue = [];
  writer.postMessage(committing.map((p) => p.row));
};
writer.on('message', () => {
  for (const { row, res } of committing!) reply(res, 202, { delivery_id: row.id });
  committing = null;
  flush();
});

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
    queue.push({ row: { id: randomUUID(), identity, receivedAt: Date.now(), body }, res });
    if (queue.length === 1) setImmediate(flush);
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
// The thread is idle once the server has closed; exiting ends it.
process.on('SIGTERM', () => server.close(() => process.exit(0)));
// The benchmark that started this server is gone (killed): no server outlives it.
process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
