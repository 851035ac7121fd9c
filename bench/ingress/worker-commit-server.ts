/**
 * (e2) The worker-thread group-commit baseline: node:http + JSON.parse + an identity, with the
 * SQLite writes (WAL, synchronous=FULL, as the relay) on a worker thread: whatever arrives while
 * one batch commits forms the next, and each request is answered 202 once its batch is durable.
 * What the relay's accept path would cost with nothing else of the relay around it.
 * Usage: worker-commit-server.mjs <data-dir> (its thread, worker-commit-writer.js, beside it).
 * Prints `{"url"}` when listening.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { onJsonBody, reply, serveBaseline } from './baseline-server.js';
import type { Row } from './worker-commit-writer.js';

const here = import.meta.url;
const writer = new Worker(new URL('./worker-commit-writer.js', here), {
  workerData: join(process.argv[2] ?? '.', 'e2.sqlite'),
});

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

serveBaseline(
  onJsonBody((req, res, body) => {
    const header = req.headers['x-service-delivery-id'];
    const identity =
      typeof header === 'string' ? header : createHash('sha256').update(body).digest('hex');
    queue.push({ row: { id: randomUUID(), identity, receivedAt: Date.now(), body }, res });
    if (queue.length === 1) setImmediate(flush);
  }),
);
