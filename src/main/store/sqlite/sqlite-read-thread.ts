import type { Worker } from 'node:worker_threads';
import { describeError } from '../../log.js';
import { AskerGoneError } from '../asker-gone.js';
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

/** A read asked of the thread, and its asker (a read whose asker has left is not begun). */
interface Asked {
  call: ReadCall;
  gone: AbortSignal | undefined;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/** One started thread, the read it is answering and those asked after it. */
interface Running {
  worker: Worker;
  answering: { id: number; asked: Asked } | null;
  /**
   * Posted one at a time: a read whose asker has left by its turn (a search the UI no longer
   * shows, typed on) is dropped, not counted for nobody ahead of the next. `ahead` first.
   */
  ahead: Asked[];
  queue: Asked[];
  /** Ended: closes once the reads asked are answered. */
  ending: boolean;
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

  /**
   * Answered after every read asked before it (`ahead`: after those asked ahead only); rejected
   * with AskerGoneError, unread, when `gone` has aborted by its turn.
   */
  read(call: ReadCall, gone?: AbortSignal, ahead = false): Promise<unknown> {
    if (gone?.aborted) return Promise.reject(new AskerGoneError());
    const running = (this.#running ??= this.#start());
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    return new Promise((resolve, reject) => {
      (ahead ? running.ahead : running.queue).push({ call, gone, resolve, reject });
      // A CLI that awaits a read must not exit before its answer; an idle thread keeps nothing up.
      running.worker.ref();
      this.#postNext(running);
    });
  }

  /** The next read whose asker is still there, once the thread has answered the last. */
  #postNext(running: Running): void {
    if (running.answering) return;
    const next = (): Asked | undefined => running.ahead.shift() ?? running.queue.shift();
    for (let asked = next(); asked; asked = next()) {
      if (asked.gone?.aborted) {
        asked.reject(new AskerGoneError());
        continue;
      }
      const id = this.#nextId++;
      running.answering = { id, asked };
      running.worker.postMessage({ type: 'read', id, call: asked.call } satisfies ToReadThread);
      return;
    }
    if (running.ending) {
      running.worker.postMessage({ type: 'close' } satisfies ToReadThread);
      return;
    }
    running.worker.unref();
    if (this.#running !== running) return;
    this.#idleTimer = setTimeout(() => this.#end(), this.idleCloseMs).unref();
  }

  /** Asks the thread to close after what it was asked; the next read starts another. */
  #end(): void {
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    const running = this.#running;
    if (!running) return;
    this.#running = null;
    running.ending = true;
    // Held until it has closed its connection: a process that closes its store waits for that.
    running.worker.ref();
    this.#postNext(running);
  }

  #start(): Running {
    const worker = startThread(threadScript('read-thread'), {
      workerData: { file: this.file } satisfies ReadThreadData,
      resourceLimits: THREAD_LIMITS,
    });
    worker.unref();
    const running: Running = { worker, answering: null, ahead: [], queue: [], ending: false };
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
      const { answering } = running;
      if (answering?.id !== message.id) return;
      running.answering = null;
      if (message.type === 'answer') answering.asked.resolve(message.value);
      else answering.asked.reject(fromThreadError(message.error));
      this.#postNext(running);
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
        if (this.#running === running) this.#running = null;
        const stopped = crash ?? new Error(`the SQLite read thread stopped (exit code ${code})`);
        const held = [
          ...(running.answering ? [running.answering.asked] : []),
          ...running.ahead,
          ...running.queue,
        ];
        running.answering = null;
        running.ahead = [];
        running.queue = [];
        for (const { reject } of held) reject(stopped);
        resolve();
      }),
    );
    this.#ending.add(exited);
    void exited.then(() => this.#ending.delete(exited));
    return running;
  }
}
