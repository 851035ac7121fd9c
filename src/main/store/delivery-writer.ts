import type {
  AcceptItem,
  AcceptOutcome,
  BatchItem,
  BatchResult,
  CommittedDelivery,
  DeliveryBatchStore,
  RejectionItem,
} from './delivery-batch.js';
import { itemProblem } from './item-bounds.js';

interface Flight {
  lastSeq: number;
  ended: boolean;
}

interface Answer {
  resolve: (o: AcceptOutcome) => void;
  reject: (e: unknown) => void;
}

type Pending = { seq: number } & (
  { kind: 'accept'; item: AcceptItem; answer: Answer } | { kind: 'reject'; item: RejectionItem }
);

export interface DeliveryWriterOptions {
  onCommit: (committed: CommittedDelivery[]) => void;
  onError: (error: unknown) => void;
  /**
   * Commits in flight at once (default 1). A store whose commits run on separate connections
   * (PostgreSQL) overlaps one batch's round trips and fsync with the next batch's work; a store
   * with one writer (SQLite) gains nothing from more than 1.
   */
  maxInFlight?: number;
}

/**
 * Group commit over a `DeliveryBatchStore`: requests that arrive together share one transaction
 * (one fsync), and each waits for the commit that holds it. Up to `maxInFlight` commits are in
 * flight at a time; whatever arrives meanwhile forms the next batch.
 */
export class DeliveryWriter {
  private queue: Pending[] = [];
  private scheduled = false;
  private committing = 0;
  /** The last item of each batch not yet counted in `written`, oldest first, and whether it ended. */
  private unwritten: Flight[] = [];
  private readonly maxInFlight: number;
  private idleWaiters: Array<() => void> = [];
  /** Items are numbered as they queue; `written` is the last one whose batch has ended. */
  private queued = 0;
  private written = 0;
  private settledWaiters: Array<{ seq: number; wake: () => void }> = [];

  constructor(
    private readonly store: DeliveryBatchStore,
    private readonly options: DeliveryWriterOptions,
  ) {
    this.maxInFlight = Math.max(1, options.maxInFlight ?? 1);
  }

  /**
   * Resolves only after the transaction holding this delivery has committed durably. An item with
   * a value the store would refuse is refused here, before it can share a batch with others.
   */
  accept(item: AcceptItem): Promise<AcceptOutcome> {
    const problem = itemProblem({ kind: 'accept', item });
    if (problem) return Promise.reject(this.refused(item.id, problem));
    return new Promise((resolve, reject) => {
      this.queue.push({ seq: ++this.queued, kind: 'accept', item, answer: { resolve, reject } });
      this.schedule();
    });
  }

  /** Rejections carry no promise to the sender, so they ride the next batch. */
  reject(item: RejectionItem): void {
    const problem = itemProblem({ kind: 'reject', item });
    if (problem) return void this.refused(item.id, problem);
    this.queue.push({ seq: ++this.queued, kind: 'reject', item });
    this.schedule();
  }

  /** Resolves once everything queued so far is durable (used when shutting down). */
  drain(): Promise<void> {
    if (this.idle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Resolves once every item queued so far has been through a commit (written, or failed), not
   * waiting for anything that arrives later: a read after it sees every entry answered before it.
   */
  settled(): Promise<void> {
    if (this.written >= this.queued) return Promise.resolve();
    return new Promise((wake) => this.settledWaiters.push({ seq: this.queued, wake }));
  }

  private idle(): boolean {
    return this.queue.length === 0 && !this.scheduled && this.committing === 0;
  }

  private schedule(): void {
    if (this.scheduled || this.committing >= this.maxInFlight) return;
    this.scheduled = true;
    // setImmediate runs after the poll phase: every request whose body finished reading in this
    // turn of the event loop joins the same transaction.
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.queue.splice(0, this.store.maxBatchItems ?? Infinity);
    if (batch.length === 0) return this.wakeIdle();
    const flight: Flight = { lastSeq: batch[batch.length - 1]!.seq, ended: false };
    this.unwritten.push(flight);
    this.committing++;
    const items: BatchItem[] = batch.map((p) => ({ kind: p.kind, item: p.item }) as BatchItem);
    let committed: Promise<BatchResult>;
    try {
      committed = this.store.commit(items);
    } catch (error) {
      // A store that throws instead of rejecting still fails only this batch.
      committed = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    // Only the answers wait for the commit: the items (bodies of up to 256 KB) are the store's
    // now, and let go of here, so that they do not outlive young-generation collections.
    const waiting = batch.map((p) => (p.kind === 'accept' ? p.answer : null));
    committed.then(
      (result) => this.settle(waiting, flight, result),
      (error: unknown) => this.fail(waiting, flight, error),
    );
    if (this.queue.length > 0) this.schedule();
  }

  /** `waiting`: each item's answer, in batch order (null for a rejection: nobody waits). */
  private settle(waiting: Array<Answer | null>, flight: Flight, result: BatchResult): void {
    const failed = new Map(result.failed?.map((f) => [f.index, f]));
    let next = 0;
    for (const [index, answer] of waiting.entries()) {
      const failure = failed.get(index);
      if (failure) {
        const error = new Error(
          `delivery ${failure.id} could not be written (the rest of its batch was): ${failure.message}`,
        );
        this.options.onError(error);
        answer?.reject(error);
      } else if (answer) {
        answer.resolve(result.outcomes[next++]!);
      }
    }
    this.afterCommit(flight);
    this.options.onCommit(result.committed);
  }

  private fail(waiting: Array<Answer | null>, flight: Flight, error: unknown): void {
    this.options.onError(error);
    for (const answer of waiting) answer?.reject(error);
    this.afterCommit(flight);
  }

  private refused(id: string, problem: string): Error {
    const error = new Error(`delivery ${id} was not queued: ${problem}`);
    this.options.onError(error);
    return error;
  }

  private afterCommit(flight: Flight): void {
    flight.ended = true;
    this.committing--;
    // `written` moves only past batches that ended with every earlier one: a later batch that
    // commits first does not make `settled` answer for an earlier one still in flight.
    while (this.unwritten[0]?.ended) this.written = this.unwritten.shift()!.lastSeq;
    const waiting = this.settledWaiters;
    this.settledWaiters = waiting.filter(({ seq }) => seq > this.written);
    for (const { seq, wake } of waiting) if (seq <= this.written) wake();
    // What arrived during the commit goes to the store at once: its commit then overlaps the
    // answers to this batch, which run after this (their promises resolve as microtasks).
    if (this.queue.length > 0 && !this.scheduled) this.flush();
    else this.wakeIdle();
  }

  private wakeIdle(): void {
    if (!this.idle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }
}
