import type { Worker } from 'node:worker_threads';
import { describeError } from '../../log.js';
import type {
  FromReadThread,
  ReadCall,
  ReadThreadData,
  ToReadThread,
} from './read-thread-protocol.js';
import { startThread, THREAD_LIMITS, threadScript } from './thread-script.js';
import { fromThreadError } from './writer-thread-protocol.js';

/**
 * How long the thread stays up after its last read. Its isolate and connection are a few MB a
 * relay nobody browses need not keep; a UI in use reads far more often (each live entry), and
 * keeps the totals the thread has counted (search-totals.ts) warm.
 */
export const READ_IDLE_CLOSE_MS = 5 * 60_000;

interface Waiting {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/** One started thread and the reads it has not answered yet. */
interface Running {
  worker: Worker;
  waiting: Map<number, Waiting>;
}

/**
 * The main thread's side of a read thread (read-thread.ts): reads of the delivery log that walk
 * many entries, answered off the thread that answers senders, one after another. The thread
 * starts with the first read (a relay nobody browses never pays for it) and closes once idle; one
 * that died is started again by the next read, and the reads it held fail with why.
 */
export class SqliteReadThread {
  #running: Running | null = null;
  readonly #ending = new Set<Promise<void>>();
  #nextId = 1;
  #idleTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly file: string,
    private readonly idleCloseMs = READ_IDLE_CLOSE_MS,
  ) {}

  /** Whether a thread is up (it closes once idle). */
  get started(): boolean {
    return this.#running !== null;
  }

  /** Ends the thread once the reads already asked are answered. */
  async close(): Promise<void> {
    this.#end();
    await Promise.all(this.#ending);
  }

  /** Answered after every read asked before it. */
  read(call: ReadCall): Promise<unknown> {
    const running = (this.#running ??= this.#start());
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      running.waiting.set(id, { resolve, reject });
      // A CLI that awaits a read must not exit before its answer; an idle thread keeps nothing up.
      running.worker.ref();
      running.worker.postMessage({ type: 'read', id, call } satisfies ToReadThread);
    });
  }

  /** Asks the thread to close after what it was asked; the next read starts another. */
  #end(): void {
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    const running = this.#running;
    if (!running) return;
    this.#running = null;
    // Held until it has closed its connection: a process that closes its store waits for that.
    running.worker.ref();
    running.worker.postMessage({ type: 'close' } satisfies ToReadThread);
  }

  #start(): Running {
    const worker = startThread(threadScript('read-thread'), {
      workerData: { file: this.file } satisfies ReadThreadData,
      resourceLimits: THREAD_LIMITS,
    });
    worker.unref();
    const waiting = new Map<number, Waiting>();
    let crash: Error | null = null;
    worker.on('message', (message: FromReadThread) => {
      if (message.type === 'closed') return;
      if (message.type === 'open-failed') {
        const why = fromThreadError(message.error);
        crash = new Error(`the SQLite read thread cannot open ${this.file}: ${why.message}`, {
          cause: why,
        });
        return;
      }
      const read = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.type === 'answer') read?.resolve(message.value);
      else read?.reject(fromThreadError(message.error));
      if (waiting.size > 0) return;
      worker.unref();
      if (this.#running?.worker !== worker) return;
      if (this.#idleTimer) clearTimeout(this.#idleTimer);
      this.#idleTimer = setTimeout(() => this.#end(), this.idleCloseMs).unref();
    });
    worker.on(
      'error',
      (error) =>
        (crash = new Error(`the SQLite read thread stopped: ${describeError(error)}`, {
          cause: error,
        })),
    );
    const exited = new Promise<void>((resolve) =>
      worker.once('exit', (code) => {
        if (this.#running?.worker === worker) this.#running = null;
        const stopped = crash ?? new Error(`the SQLite read thread stopped (exit code ${code})`);
        for (const { reject } of waiting.values()) reject(stopped);
        waiting.clear();
        resolve();
      }),
    );
    this.#ending.add(exited);
    void exited.then(() => this.#ending.delete(exited));
    return { worker, waiting };
  }
}
