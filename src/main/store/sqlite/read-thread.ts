/**
 * The delivery log's reads that walk many entries (read-thread-protocol.ts), on a thread of their
 * own (sqlite-read-thread.ts starts it) with a read-only connection. A search's first total at a
 * week's scale counts hundreds of thousands of hits (about half a second at two million entries):
 * on the main thread that held every sender's answer for as long. WAL: a read sees every commit
 * made before it began, and never holds up the writer thread's.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { openReadConnection, type Db } from './db.js';
import { createDeliveriesRepository } from './deliveries-repo.js';
import { savedSearchTotals } from './saved-totals.js';
import type {
  FromReadThread,
  ReadCall,
  ReadThreadData,
  ToReadThread,
} from './read-thread-protocol.js';
import { toThreadError } from './writer-thread-protocol.js';

const port = parentPort;
if (!port) throw new Error('read-thread runs as a worker thread, started by the SQLite store');
const send = (message: FromReadThread): void => port.postMessage(message);
const { file } = workerData as ReadThreadData;

/** Answers reads on `db` until told to close. */
function serve(db: Db, port: MessagePort): void {
  // Opened by the first search total read here: the pages' thread never saves one.
  const saved = savedSearchTotals(file);
  const deliveries = createDeliveriesRepository(db, saved);
  const answer = ({ method, args }: ReadCall): unknown =>
    (deliveries[method] as (...a: ReadCall['args']) => unknown)(...args);
  port.on('message', (message: ToReadThread) => {
    if (message.type === 'close') {
      saved.close();
      db.close();
      send({ type: 'closed' });
      return port.close();
    }
    try {
      send({ type: 'answer', id: message.id, value: answer(message.call) });
    } catch (error) {
      send({ type: 'failed', id: message.id, error: toThreadError(error) });
    }
  });
}

try {
  serve(openReadConnection(file), port);
} catch (error) {
  // Every read waiting fails with why (a data dir removed under a running relay shows here).
  send({ type: 'open-failed', error: toThreadError(error) });
  port.close();
}
