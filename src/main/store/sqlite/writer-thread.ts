/**
 * The SQLite writer thread's entry (a worker_threads worker started by `SqliteWriterThread`): its
 * own connection to the relay's file, with the main connection's pragmas, and one
 * `sqliteBatchCommitter` transaction (and fsync) per batch, off the thread that parses and
 * verifies requests. Batches arrive by structured clone (the bodies in memory shared with the main
 * thread) and go to the SQL as they are, so plain fields the accept path adds need nothing here.
 * The search indexer runs here too, between batches: on the main thread its transactions held
 * the write lock these commits waited for (p99 of that wait: 36 ms under the bench's load), and
 * its slices stalled the parsing of requests. Retention runs here for the same reasons (its
 * slices, their commits and the checkpoints they cause held the ingress thread).
 */
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { openConnection, type Db } from './db.js';
import type { BatchItem, BatchResult } from '../delivery-batch.js';
import { createRetention } from './retention.js';
import { sqliteBatchCommitter } from './batch-store.js';
import { SearchIndexer } from '../search-indexer.js';
import { ACCEPT_MS_PER_DELIVERY, createSearchIndex, SQLITE_PACING } from './search-index.js';
import { WriterYield } from './writer-yield.js';
import { reportSlow } from './writer-trace.js';
import {
  reviveBodies,
  toThreadError,
  type FromWriterThread,
  type ToWriterThread,
  type WriterThreadData,
} from './writer-thread-protocol.js';

const port = parentPort;
if (!port) throw new Error('writer-thread runs as a worker thread, started by SqliteWriterThread');
const send = (message: FromWriterThread): void => port.postMessage(message);
const { file, options, lockWanted } = workerData as WriterThreadData;
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
  let queued = false;
  const indexer = new SearchIndexer(
    createSearchIndex(writer.db, waiters.wanted),
    SQLITE_PACING,
    (error) => send({ type: 'index-failed', error: toThreadError(error) }),
    // The main thread keeps an idle thread up while entries are still queued.
    ({ indexed, more, deferred = false }) => {
      const left = more || deferred;
      if (indexed > 0 || left !== queued) send({ type: 'indexed', more: left });
      queued = left;
    },
  );
  indexer.start();
  const retention = createRetention(writer.db, waiters.wanted);
  port.on('message', (message: ToWriterThread) => {
    if (message.type === 'prune') {
      const { id } = message;
      retention.prune(message.policy, message.now).then(
        (removed) => {
          if (removed > 0) indexer.mergeDue();
          send({ type: 'pruned', id, removed });
        },
        (error: unknown) => send({ type: 'prune-failed', id, error: toThreadError(error) }),
      );
      return;
    }
    if (message.type === 'close') {
      // Sent only once nothing is in flight; with the port closed the thread ends. What is
      // still queued for the index is indexed by the next thread.
      indexer.stop();
      writer.db.close();
      port.close();
      return;
    }
    waiters.taken();
    try {
      const began = performance.now();
      const result = writer.commit(reviveBodies(message.batch));
      // The relay's load the index's share follows: the commit's time (its fsync included) and
      // the ingress's own time for what it carried (the two share the machine's cores).
      const tookMs = performance.now() - began;
      reportSlow('accept', tookMs, `${message.batch.length} deliveries`);
      const busyMs = tookMs + message.batch.length * ACCEPT_MS_PER_DELIVERY;
      indexer.markBusy(busyMs);
      send({ type: 'committed', id: message.id, result });
    } catch (error) {
      send({ type: 'failed', id: message.id, error: toThreadError(error) });
    }
  });
  send({ type: 'ready' });
}
