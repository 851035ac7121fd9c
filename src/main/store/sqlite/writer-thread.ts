/**
 * The SQLite writer thread's entry (a worker_threads worker started by `SqliteWriterThread`): its
 * own connection to the relay's file, with the main connection's pragmas, and one
 * `sqliteBatchCommitter` transaction (and fsync) per batch, off the thread that parses and
 * verifies requests. Batches arrive by structured clone (the bodies in memory shared with the main
 * thread) and go to the SQL as they are, so plain fields the accept path adds need nothing here.
 * The search index runs on a thread of its own that this one starts (index-thread.ts), in a file
 * of its own: its transactions never take the write lock these commits need. Retention runs here
 * (on the main thread its slices, their commits and the checkpoints they cause held the ingress
 * thread).
 */
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { openConnection, type Db } from './db.js';
import type { BatchItem, BatchResult } from '../delivery-batch.js';
import { createRetention } from './retention.js';
import { sqliteBatchCommitter } from './batch-store.js';
import { ACCEPT_MS_PER_DELIVERY } from './search-index.js';
import { startIndexThread } from './index-thread-start.js';
import { WriterYield } from './writer-yield.js';
import { reportSlow } from './writer-trace.js';
import {
  receivedBatch,
  toThreadError,
  type FromWriterThread,
  type ToWriterThread,
  type WriterThreadData,
  withoutOutcomes,
} from './writer-thread-protocol.js';

const port = parentPort;
if (!port) throw new Error('writer-thread runs as a worker thread, started by SqliteWriterThread');
const send = (message: FromWriterThread): void => port.postMessage(message);
const { file, options, lockWanted, indexThread: indexScript } = workerData as WriterThreadData;
const waiters = new WriterYield(lockWanted);

/** The connection and its prepared transaction, or null (and the main thread told) if it cannot open. */
function open(): { db: Db; commit: (batch: BatchItem[]) => BatchResult } | null {
  try {
    const db = openConnection(file);
    return { db, commit: sqliteBatchCommitter(db, options) };
  } catch (error) {
    send({ type: 'open-failed', error: toThreadError(error) });
    port!.close();
    return null;
  }
}

const writer = open();
if (writer) {
  // Its reports go to the main thread as this thread's: it keeps an idle thread up while
  // entries are still queued.
  const indexThread = startIndexThread(file, indexScript, send);
  // Until its first slice says otherwise, entries may be queued: the thread is not idle.
  send({ type: 'indexed', more: true });
  const retention = createRetention(writer.db, waiters.wanted);
  port.on('message', (message: ToWriterThread) => {
    if (message.type === 'prune') {
      const { id } = message;
      retention.prune(message.policy, message.now).then(
        (removed) => {
          if (removed > 0) indexThread.tell({ type: 'pruned' });
          send({ type: 'pruned', id, removed });
        },
        (error: unknown) => send({ type: 'prune-failed', id, error: toThreadError(error) }),
      );
      return;
    }
    if (message.type === 'close') {
      // Sent only once nothing is in flight; with the port closed the thread ends. What is
      // still queued for the index is indexed by the next thread.
      void indexThread.close().finally(() => {
        writer.db.close();
        port.close();
      });
      return;
    }
    waiters.taken();
    try {
      const began = performance.now();
      const result = writer.commit(receivedBatch(message.batch));
      // The relay's load the index's share follows: the commit's time (its fsync included) and
      // the ingress's own time for what it carried (the two share the machine's cores).
      const tookMs = performance.now() - began;
      reportSlow('accept', tookMs, `${message.batch.length} deliveries`);
      const busyMs = tookMs + message.batch.length * ACCEPT_MS_PER_DELIVERY;
      indexThread.tell({ type: 'busy', busyMs });
      send({ type: 'committed', id: message.id, result: withoutOutcomes(result) });
    } catch (error) {
      send({ type: 'failed', id: message.id, error: toThreadError(error) });
    }
  });
  send({ type: 'ready' });
}
