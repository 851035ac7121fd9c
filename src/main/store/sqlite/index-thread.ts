/**
 * The search index's thread (a worker_threads worker the writer thread starts): its own
 * connections, one to the index's file (search-index-file.ts) and one to the relay's for the
 * queues, and the `SearchIndexer` that paces them. The index's transactions (slices, FTS5's
 * merges, a pruned entry's tombstones) lock the index's file only, so the writer thread's accept
 * commits never wait for them; they still share the machine's cores, so the index keeps its
 * pacing, told of each commit by the writer thread (`busy`).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openConnection } from './db.js';
import { SearchIndexer } from '../search-indexer.js';
import { createSearchIndex, SQLITE_PACING } from './search-index.js';
import { toThreadError } from './writer-thread-protocol.js';
import type { FromIndexThread, IndexThreadData, ToIndexThread } from './index-thread-protocol.js';

const port = parentPort;
if (!port) throw new Error('index-thread runs as a worker thread, started by the writer thread');
const send = (message: FromIndexThread): void => port.postMessage(message);
const { file } = workerData as IndexThreadData;

const logDb = openConnection(file);
const index = createSearchIndex(logDb);
// What keeps an idle writer thread up (it closes after IDLE_CLOSE_MS otherwise, this thread with
// it): entries queued, or segments left to merge. Queued entries alone let a quiet relay close it
// 30 s after a prune's rows were forgotten, the merges that drop them left half done (on two
// million entries, a whole level's merge left at a fifth) until the next delivery. The writer
// thread counts both as pending until told: the first slice always reports.
let queued = true;
let reported = true;
const report = (indexed: number): void => {
  const left = queued || indexer.mergesLeft();
  if (indexed > 0 || left !== reported) send({ type: 'indexed', more: left });
  reported = left;
};
const indexer = new SearchIndexer(
  index,
  SQLITE_PACING,
  (error) => send({ type: 'index-failed', error: toThreadError(error) }),
  ({ indexed, more, deferred = false }) => {
    queued = more || deferred;
    report(indexed);
  },
  () => report(0),
);
indexer.start();
port.on('message', (message: ToIndexThread) => {
  if (message.type === 'busy') return indexer.markBusy(message.busyMs);
  if (message.type === 'pruned') return indexer.pruned();
  // What is still queued is indexed by the next thread.
  indexer.stop();
  index.close();
  logDb.close();
  send({ type: 'closed' });
  port.close();
});
