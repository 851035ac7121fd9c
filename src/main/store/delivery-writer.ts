import type {
  AcceptItem,
  AcceptOutcome,
  BatchItem,
  BatchResult,
  CommittedDelivery,
  DeliveryBatchStore,
  RejectionItem,
} from './delivery-batch.js';

type Pending = { seq: number } & (
  | {
      kind: 'accept';
      item: AcceptItem;
      resolve: (o: AcceptOutcome) => void;
      reject: (e: unknown) => void;
    }
  | { kind: 'reject'; item: RejectionItem }
);

export interface DeliveryWriterOptions {
  onCommit: (committed: CommittedDelivery[]) => void;
  onError: (error: unknown) => void;
}

/**
 * Group commit over a `DeliveryBatchStore`: requests that arrive together share one transaction
 * (one fsync), and each waits for the commit that holds it. One commit is in flight at a time;
 * whatever arrives meanwhile forms the next batch.
 */
export class DeliveryWriter {
  private queue: Pending[] = [];
  private scheduled = false;
  private committing = false;
  private idleWaiters: Array<() => void> = [];
  /** Items are numbered as they queue; `written` is the last one whose batch has ended. */
  private queued = 0;
  private written = 0;
  private settledWaiters: Array<{ seq: number; wake: () => void }> = [];

  constructor(
    private readonly store: DeliveryBatchStore,
    private readonly options: DeliveryWriterOptions,
  ) {}

  /** Resolves only after the transaction holding this delivery has committed durably. */
  accept(item: AcceptItem): Promise<AcceptOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ seq: ++this.queued, kind: 'accept', item, resolve, reject });
      this.schedule();
    });
  }

  /** Rejections carry no promise to the sender, so they ride the next batch. */
  reject(item: RejectionItem): void {
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
    return this.queue.length === 0 && !this.scheduled && !this.committing;
  }

  private schedule(): void {
    if (this.scheduled || this.committing) return;
    this.scheduled = true;
    // setImmediate runs after the poll phase: every request whose body finished reading in this
    // turn of the event loop joins the same transaction.
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return this.wakeIdle();
    this.committing = true;
    const items: BatchItem[] = batch.map((p) => ({ kind: p.kind, item: p.item }) as BatchItem);
    let committed: Promise<BatchResult>;
    try {
      committed = this.store.commit(items);
    } catch (error) {
      // A store that throws instead of rejecting still fails only this batch.
      committed = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    committed.then(
      (result) => this.settle(batch, result),
      (error: unknown) => this.fail(batch, error),
    );
  }

  private settle(batch: Pending[], result: BatchResult): void {
    let next = 0;
    for (const pending of batch)
      if (pending.kind === 'accept') pending.resolve(result.outcomes[next++]!);
    this.afterCommit(batch);
    this.options.onCommit(result.committed);
  }

  private fail(batch: Pending[], error: unknown): void {
    this.options.onError(error);
    for (const pending of batch) if (pending.kind === 'accept') pending.reject(error);
    this.afterCommit(batch);
  }

  private afterCommit(batch: Pending[]): void {
    this.committing = false;
    this.written = batch[batch.length - 1]!.seq;
    const waiting = this.settledWaiters;
    this.settledWaiters = waiting.filter(({ seq }) => seq > this.written);
    for (const { seq, wake } of waiting) if (seq <= this.written) wake();
    // What arrived during the commit goes to the store at once: its commit then overlaps the
    // answers to this batch, which run after this (their promises resolve as microtasks).
    if (this.queue.length > 0) this.flush();
    else this.wakeIdle();
  }

  private wakeIdle(): void {
    if (!this.idle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }
}
