import type { ResourceLimits, Worker } from 'node:worker_threads';
import { startThread, THREAD_LIMITS, threadScript } from './thread-script.js';
import { describeError, type Logger } from '../../log.js';
import type { BatchItem, BatchResult, DeliveryBatchStore } from '../delivery-batch.js';
import { SharedScratch } from './shared-scratch.js';
import { WriterYield } from './writer-yield.js';
import type { RetentionPolicy } from '../retention-policy.js';
import type { BatchStoreOptions } from './batch-store.js';
import {
  bodyBytes,
  fromThreadError,
  withOutcomes,
  postedBatch,
  type FromWriterThread,
  type ToWriterThread,
  type WriterThreadData,
} from './writer-thread-protocol.js';

/** After a replacement thread failed to start, commits are refused for this long before another try. */
const RESTART_BACKOFF_MS = 1_000;
/**
 * A thread with nothing to write for this long is closed, and its memory (about 7 MB, and the
 * batch scratch: up to 16 MB after a burst of large bodies) with it;
 * the next delivery starts another, which takes a few tens of milliseconds.
 */
export const IDLE_CLOSE_MS = 30_000;

export interface WriterThreadConfig {
  /** The relay's SQLite file, already created and migrated by `openDatabase`. */
  file: string;
  options: BatchStoreOptions;
  log: Logger;
  /** The thread's V8 heap limits; a thread that runs out of its heap dies (and is replaced). */
  resourceLimits?: ResourceLimits;
  /** Default IDLE_CLOSE_MS. */
  idleCloseMs?: number;
}

interface Waiting {
  resolve: (result: BatchResult) => void;
  reject: (error: Error) => void;
  /** Where the batch's bytes are: the thread reads them until it answers. */
  scratch: SharedArrayBuffer;
}

/**
 * A `DeliveryBatchStore` that commits on a worker thread with its own SQLite connection, so the
 * transaction and its fsync leave the main thread to parse and verify the next requests; the
 * search indexer runs there too, between batches. A
 * thread that dies fails the batches it held (their senders get 503, never a 202) and is
 * replaced at the next commit; an idle one is closed until needed. (Never `worker.terminate()`
 * it: a thread ended inside a better-sqlite3 call aborts the whole process.)
 */
export class SqliteWriterThread implements DeliveryBatchStore {
  private worker: Promise<Worker> | null = null;
  private readonly waiting = new Map<number, Waiting>();
  private readonly scratch = new SharedScratch();
  private nextId = 1;
  private closing = false;
  /** After a replacement failed to start: when to try again, and why it failed. */
  private retryAt = 0;
  private lastStartError: Error | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  /** Threads asked to close (idle, or at shutdown): their exit is no accident. */
  private readonly ending = new WeakSet<Worker>();
  private retiring: Promise<void> | null = null;
  /** The thread's search indexer still has entries queued: the thread is not idle yet. */
  private indexing = false;
  /** Prunes asked for and not yet answered: the thread is not idle while one runs. */
  private readonly prunes = new Map<
    number,
    { resolve: (removed: number) => void; reject: (error: Error) => void }
  >();

  /** Who waits for the write lock: the thread's background slices give way to them. */
  readonly lockWanted = new WriterYield();

  private constructor(private readonly config: WriterThreadConfig) {}

  /** Resolves once the thread has opened its connection; rejects if it cannot. */
  static async start(config: WriterThreadConfig): Promise<SqliteWriterThread> {
    const thread = new SqliteWriterThread(config);
    await thread.running();
    return thread;
  }

  /** Batches handed over and not yet answered (what a dying thread would fail). */
  get inFlight(): number {
    return this.waiting.size;
  }

  /** Bytes kept for the next batch's bodies (up to 16 MB under load; none while idle-closed). */
  get keptScratchBytes(): number {
    return this.scratch.kept;
  }

  /** A thread is running (or starting): false while idle-closed. */
  get awake(): boolean {
    return this.worker !== null;
  }

  commit(batch: BatchItem[]): Promise<BatchResult> {
    if (this.closing) return Promise.reject(new Error('the SQLite writer thread is closed'));
    this.stayAwake();
    return this.running().then(
      (worker) =>
        new Promise<BatchResult>((resolve, reject) => {
          const id = this.nextId++;
          const scratch = this.scratch.take(bodyBytes(batch));
          this.waiting.set(id, { resolve, reject, scratch });
          const message: ToWriterThread = {
            type: 'commit',
            id,
            batch: postedBatch(batch, scratch),
          };
          this.lockWanted.posted();
          worker.postMessage(message);
        }),
    );
  }

  /**
   * Retention (retention.ts) on the thread, in paced slices between its commits: its deletes,
   * their commits and the checkpoints they cause never hold the thread that answers senders.
   * Resolves with how many deliveries went (0 if the thread was closed first).
   */
  prune(policy: RetentionPolicy, now: number): Promise<number> {
    if (this.closing) return Promise.reject(new Error('the SQLite writer thread is closed'));
    this.stayAwake();
    return this.running().then(
      (worker) =>
        new Promise<number>((resolve, reject) => {
          const id = this.nextId++;
          this.prunes.set(id, { resolve, reject });
          worker.postMessage({ type: 'prune', id, policy, now } satisfies ToWriterThread);
        }),
    );
  }

  /** Call once nothing is in flight (after `DeliveryWriter.drain`): closes the thread's connection. */
  async close(): Promise<void> {
    this.closing = true;
    this.stayAwake();
    await this.retiring;
    const worker = await this.worker?.catch(() => null);
    if (worker) await this.end(worker);
  }

  private stayAwake(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  /** With nothing in flight, the thread is closed after IDLE_CLOSE_MS unless a batch comes first. */
  private idle(): void {
    if (this.waiting.size > 0 || this.closing) return;
    this.stayAwake();
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      const worker = this.worker;
      if (!worker || this.waiting.size > 0) return;
      if (this.indexing || this.prunes.size > 0) return this.idle();
      this.worker = null;
      this.indexing = false;
      // An idle relay keeps neither the thread nor the last burst's batch memory.
      this.scratch.release();
      this.retiring = worker.then(
        (w) => this.end(w),
        () => undefined,
      );
    }, this.config.idleCloseMs ?? IDLE_CLOSE_MS);
    this.idleTimer.unref();
  }

  private end(worker: Worker): Promise<void> {
    this.ending.add(worker);
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ type: 'close' } satisfies ToWriterThread);
    return exited;
  }

  private running(): Promise<Worker> {
    if (this.worker) return this.worker;
    // The same answer as the failed start's until the backoff ends.
    if (Date.now() < this.retryAt && this.lastStartError)
      return Promise.reject(this.lastStartError);
    const worker = this.spawn();
    this.worker = worker;
    const forget = (): void => {
      if (this.worker === worker) this.worker = null;
    };
    worker.then(
      (started) => started.once('exit', forget),
      (error: Error) => {
        this.lastStartError = error;
        this.retryAt = Date.now() + RESTART_BACKOFF_MS;
        forget();
      },
    );
    return worker;
  }

  private spawn(): Promise<Worker> {
    // Commits posted to a thread that died were failed; none of them is waiting any more.
    this.lockWanted.resetCommits();
    const worker = startThread(threadScript('writer-thread'), {
      workerData: {
        file: this.config.file,
        options: this.config.options,
        lockWanted: this.lockWanted.buffer,
        indexThread: threadScript('index-thread'),
      } satisfies WriterThreadData,
      resourceLimits: this.config.resourceLimits ?? THREAD_LIMITS,
    });
    let ready = false;
    let crash: Error | null = null;
    return new Promise<Worker>((resolve, reject) => {
      worker.on('message', (message: FromWriterThread) => {
        if (message.type === 'ready') {
          ready = true;
          this.idle();
          return resolve(worker);
        }
        if (message.type === 'open-failed') {
          // Which file: a data dir removed under a running relay shows here, not elsewhere.
          const why = fromThreadError(message.error);
          const error = new Error(
            `the SQLite writer thread cannot open ${this.config.file}: ${why.message}`,
            { cause: why },
          );
          return reject(error);
        }
        if (message.type === 'indexed') {
          this.indexing = message.more;
          return;
        }
        if (message.type === 'index-failed') {
          const error = fromThreadError(message.error);
          return this.config.log.error(`[search] indexing failed: ${describeError(error)}`);
        }
        if (message.type === 'pruned' || message.type === 'prune-failed') {
          const prune = this.prunes.get(message.id);
          this.prunes.delete(message.id);
          if (message.type === 'pruned') prune?.resolve(message.removed);
          else prune?.reject(fromThreadError(message.error));
          return this.idle();
        }
        const waiting = this.waiting.get(message.id);
        this.waiting.delete(message.id);
        if (waiting) this.scratch.give(waiting.scratch);
        if (message.type === 'committed') waiting?.resolve(withOutcomes(message.result));
        else waiting?.reject(fromThreadError(message.error));
        this.idle();
      });
      worker.on('error', (error) => (crash = error));
      worker.once('exit', (code) => {
        const why = `exit code ${code}${crash ? `, ${describeError(crash)}` : ''}`;
        const stopped = new Error(`the SQLite writer thread stopped (${why})`);
        reject(stopped);
        // A prune cut short goes on at the next one: nothing it deleted is lost.
        for (const prune of this.prunes.values()) prune.resolve(0);
        this.prunes.clear();
        if (!ready || this.ending.has(worker)) return;
        this.config.log.error(
          `[store] the SQLite writer thread stopped unexpectedly (${why}); ${this.waiting.size} ` +
            'batch(es) it held were not acknowledged (their senders got 503); a new thread starts with the next delivery',
        );
        for (const { reject: fail } of this.waiting.values()) fail(stopped);
        this.waiting.clear();
      });
    });
  }
}
