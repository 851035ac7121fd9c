import type { RunOutcome } from '../store/runs.js';

/** At most this many runs' writes wait in memory; past it a newcomer is dropped (see `submit`). */
export const MAX_PENDING_WRITES = 10_000;
/** The outputs kept in memory while they wait, together; past it a newcomer's output is not kept. */
export const MAX_PENDING_OUTPUT_BYTES = 16 * 1024 * 1024;
/** How long a stopping relay waits for its last try of the writes still waiting. */
export const LAST_TRY_MS = 2_000;
/** The first retry comes this soon after a failure; each failed round doubles it, up to the cap. */
export const FIRST_RETRY_MS = 200;
export const MAX_RETRY_MS = 5_000;

/** What a run needs written once its program ended, or once it could not start. */
export type RunWrite =
  /** How the run ended; `at` is when its program ended (the record's finish time). */
  | { kind: 'finish'; runId: string; outcome: RunOutcome; at: number }
  /** A claimed run whose input could not be read goes back to the queue: nothing ran. */
  | { kind: 'requeue'; runId: string; at: number };

/** The store's side: each rejects while the store cannot commit. */
export interface RunWriteStore {
  finish(id: string, outcome: RunOutcome, now: number): Promise<void>;
  requeue(id: string): Promise<void>;
}

/** Time and timers, injected so that tests move time by hand. */
export interface RetryClock {
  now(): number;
  /** Calls `fn` after `ms`; the returned function cancels it. */
  after(ms: number, fn: () => void): () => void;
}

export const systemClock: RetryClock = {
  now: Date.now,
  after(ms, fn) {
    // A retry never keeps the process alive on its own.
    const timer = setTimeout(fn, ms).unref();
    return () => clearTimeout(timer);
  },
};

export interface PendingRunWritesOptions {
  store: RunWriteStore;
  clock: RetryClock;
  /** Written: at once (`attempts` 1) or after the store came back. */
  onWritten: (write: RunWrite, attempts: number) => void;
  /** The first failure of a write: it now waits in memory. */
  onWaiting: (write: RunWrite, error: unknown, waiting: number) => void;
  /** Not kept: MAX_PENDING_WRITES were already waiting. The run's lease should be let go. */
  onDropped: (write: RunWrite) => void;
  limits?: { writes?: number; outputBytes?: number };
}

interface Waiting {
  write: RunWrite;
  attempts: number;
  bytes: number;
}

const outputBytes = (write: RunWrite): number =>
  write.kind === 'finish' && write.outcome.output !== null
    ? Buffer.byteLength(write.outcome.output)
    : 0;

/**
 * The writes that record how runs ended, tried at once and, while the store cannot commit,
 * kept in memory and tried again with backoff until the store answers: a run whose program
 * ended during an outage ends `succeeded` or `failed` with its output once the store is back,
 * instead of staying `running`. Memory is bounded: MAX_PENDING_WRITES writes and
 * MAX_PENDING_OUTPUT_BYTES of output (few runs can wait at all: claiming a run is itself a
 * write, so none starts while the store is down, and each factory runs at most 32 at a time).
 */
export class PendingRunWrites {
  private readonly waiting = new Map<string, Waiting>();
  private heldBytes = 0;
  private delayMs = FIRST_RETRY_MS;
  private cancelRetry: (() => void) | null = null;
  private round: Promise<void> | null = null;
  private stopped = false;
  private readonly maxWrites: number;
  private readonly maxBytes: number;

  constructor(private readonly options: PendingRunWritesOptions) {
    this.maxWrites = options.limits?.writes ?? MAX_PENDING_WRITES;
    this.maxBytes = options.limits?.outputBytes ?? MAX_PENDING_OUTPUT_BYTES;
  }

  /** Writes waiting for the store. */
  get size(): number {
    return this.waiting.size;
  }

  /** Output bytes held in memory by the writes waiting. */
  get outputBytes(): number {
    return this.heldBytes;
  }

  /**
   * Tries `write` now; resolves once written or, if the store did not answer, once it waits in
   * memory. Past MAX_PENDING_OUTPUT_BYTES its output is replaced by a note saying so (its
   * status, exit code and error are still written); past MAX_PENDING_WRITES it is dropped
   * (`onDropped`), which the dispatcher answers by letting the run's lease go.
   */
  async submit(write: RunWrite): Promise<void> {
    try {
      await this.attempt(write);
      this.options.onWritten(write, 1);
      return;
    } catch (error) {
      if (this.stopped) return;
      this.keep(write, error);
    }
  }

  /** One last try of everything waiting (the relay is stopping); what fails stays unwritten. */
  async stop(): Promise<void> {
    this.cancelRetry?.();
    this.cancelRetry = null;
    await this.round;
    let cancel = (): void => undefined;
    const timeUp = new Promise<void>(
      (resolve) => (cancel = this.options.clock.after(LAST_TRY_MS, resolve)),
    );
    await Promise.race([this.retryAll(), timeUp]);
    cancel();
    this.stopped = true;
  }

  private keep(write: RunWrite, error: unknown): void {
    if (this.waiting.size >= this.maxWrites) {
      this.options.onDropped(write);
      return;
    }
    let kept = write;
    let bytes = outputBytes(write);
    if (kept.kind === 'finish' && this.heldBytes + bytes > this.maxBytes) {
      const note = `[output not kept: ${bytes} bytes; the store could not be written and ${this.maxBytes} bytes of other runs' output were already waiting]`;
      kept = { ...kept, outcome: { ...kept.outcome, output: note } };
      bytes = Buffer.byteLength(note);
    }
    this.waiting.set(write.runId, { write: kept, attempts: 1, bytes });
    this.heldBytes += bytes;
    this.options.onWaiting(kept, error, this.waiting.size);
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped || this.cancelRetry || this.round || this.waiting.size === 0) return;
    this.cancelRetry = this.options.clock.after(this.delayMs, () => {
      this.cancelRetry = null;
      this.round = this.retryAll().finally(() => {
        this.round = null;
        this.schedule();
      });
    });
  }

  /** Every waiting write, oldest first; a round with no success backs off further. */
  private async retryAll(): Promise<void> {
    let progressed = false;
    let failedAny = false;
    for (const [runId, entry] of [...this.waiting]) {
      if (this.stopped) return;
      try {
        await this.attempt(entry.write);
      } catch {
        entry.attempts++;
        failedAny = true;
        continue;
      }
      this.waiting.delete(runId);
      this.heldBytes -= entry.bytes;
      progressed = true;
      this.options.onWritten(entry.write, entry.attempts + 1);
    }
    if (!failedAny || progressed) this.delayMs = FIRST_RETRY_MS;
    else this.delayMs = Math.min(MAX_RETRY_MS, this.delayMs * 2);
  }

  private attempt(write: RunWrite): Promise<void> {
    return write.kind === 'finish'
      ? this.options.store.finish(write.runId, write.outcome, write.at)
      : this.options.store.requeue(write.runId);
  }
}
