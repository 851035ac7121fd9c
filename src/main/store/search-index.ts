import { performance } from 'node:perf_hooks';
import type { Db } from './db.js';

/**
 * While deliveries are being committed: a short slice of each tick. Each slice holds the write
 * lock the writer thread's accept commits wait for (and the main thread's event loop; on
 * PostgreSQL, database time the accept transactions compete for), so slices stay short and come
 * often rather than long and rare.
 */
const BUSY_BUDGET_MS = 2;
/** Still busy, but behind for this many ticks in a row (5 s): a larger slice, so the queue shrinks. */
const BEHIND_TICKS = 100;
const BEHIND_BUDGET_MS = 5;
/** When the ingress has been quiet since the last tick. */
const IDLE_BUDGET_MS = 20;
const TICK_MS = 50;
/**
 * Quiet, and the last slice found nothing: look again this much later (a commit here looks at
 * once). On PostgreSQL each look is a round trip, and other relays' deliveries are queued there
 * too; those relays index them while they arrive.
 */
const EMPTY_POLL_MS = 1_000;

export type SearchIndex = ReturnType<typeof createSearchIndex>;

export interface IndexRun {
  indexed: number;
  /** Entries are still queued: the budget ran out first. */
  more: boolean;
}

/**
 * Indexes queued log entries (see migration 004) into the trigram index. Each call is one
 * transaction that stops once `budgetMs` is spent (after at least one entry), so a burst of large
 * payloads never holds the database, or the event loop, for long.
 */
export function createSearchIndex(db: Db) {
  const queued = db.prepare<[number], { rowid: number }>(
    'SELECT delivery_rowid AS rowid FROM delivery_search_pending ORDER BY delivery_rowid LIMIT ?',
  );
  // The bytes are UTF-8 (they parsed as JSON); CAST reads them as text without a copy in JS.
  const index = db.prepare<[number]>(`
    INSERT INTO delivery_search (rowid, id, identity, event_type, body)
    SELECT d.rowid, d.id, d.identity, d.event_type, CAST(p.body AS TEXT)
    FROM deliveries d LEFT JOIN payloads p ON p.delivery_id = d.id WHERE d.rowid = ?`);
  const dequeue = db.prepare<[number]>(
    'DELETE FROM delivery_search_pending WHERE delivery_rowid = ?',
  );
  const countQueued = db.prepare<[], { n: number }>(
    'SELECT count(*) AS n FROM delivery_search_pending',
  );

  const indexSlice = db.transaction((budgetMs: number): IndexRun => {
    const started = performance.now();
    let indexed = 0;
    for (;;) {
      const batch = queued.all(32);
      if (batch.length === 0) return { indexed, more: false };
      for (const { rowid } of batch) {
        index.run(rowid);
        dequeue.run(rowid);
        indexed++;
        if (performance.now() - started >= budgetMs) return { indexed, more: true };
      }
    }
  });

  /**
   * Without an fsync of its own: an indexing transaction lost to a crash loses no delivery (it
   * dequeues what it indexes, so the entries stay queued), and the next accept commit's fsync
   * makes it durable with its own. Its fsync would be paid while holding the write lock.
   */
  const indexSome = (budgetMs: number): IndexRun => {
    db.pragma('synchronous = NORMAL');
    try {
      return indexSlice(budgetMs);
    } finally {
      db.pragma('synchronous = FULL');
    }
  };

  return {
    /** Indexes queued entries for about `budgetMs`; `more` when some are still queued. */
    indexSome,
    pending: (): number => countQueued.get()!.n,
  };
}

/**
 * What `SearchIndexer` paces: one slice of indexing of about `budgetMs`. SQLite's index answers
 * in the caller's tick (better-sqlite3); PostgreSQL's over the network.
 */
export interface IndexSlices {
  indexSome(budgetMs: number): IndexRun | Promise<IndexRun>;
}

/** After a failed slice (PostgreSQL unreachable, say): wait this long before the next one. */
const RETRY_AFTER_ERROR_MS = 5_000;

/**
 * Runs the search index in the background: a few milliseconds per tick while deliveries are
 * arriving (more if that has not kept up for a while), and more once the ingress is quiet.
 * `markBusy` is called on every commit. SQLite's writer thread runs it between its commits (see
 * writer-thread.ts), each PostgreSQL relay beside its accept path (postgres/search-index.ts);
 * `onSlice` hears how each slice went. A slice that fails is reported and retried a while later.
 */
export class SearchIndexer {
  private busy = false;
  private behind = 0;
  private timer: NodeJS.Timeout | null = null;
  /**
   * A slice indexes at least one entry, and a 64 KB payload takes several busy budgets: while
   * deliveries arrive, such a slice is paid for by skipping ticks, so that the index never takes
   * more of the writer thread than its budget's share of each tick.
   */
  private restUntil = 0;
  private retryAt = 0;
  private lookAgainAt = 0;
  /** A slice that answers asynchronously and has not yet: ticks wait for it. */
  private slicing: Promise<void> | null = null;

  constructor(
    private readonly index: IndexSlices,
    private readonly onError: (error: unknown) => void,
    private readonly onSlice: (run: IndexRun) => void = () => {},
  ) {}

  start(): void {
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.timer.unref();
  }

  markBusy(): void {
    this.busy = true;
  }

  tick(): void {
    const started = performance.now();
    if (this.slicing || started < this.retryAt) return;
    if (this.busy ? started < this.restUntil : started < this.lookAgainAt) return;
    const budget = !this.busy
      ? IDLE_BUDGET_MS
      : this.behind >= BEHIND_TICKS
        ? BEHIND_BUDGET_MS
        : BUSY_BUDGET_MS;
    this.busy = false;
    try {
      const run = this.index.indexSome(budget);
      if (!(run instanceof Promise)) return this.sliced(started, budget, run);
      this.slicing = run
        .then(
          (done) => this.sliced(started, budget, done),
          (error: unknown) => this.failed(error),
        )
        .finally(() => (this.slicing = null));
    } catch (error) {
      this.failed(error);
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Resolves once no slice is running (after `stop`, before the connection closes). */
  async idle(): Promise<void> {
    await this.slicing;
  }

  private sliced(started: number, budget: number, run: IndexRun): void {
    const spent = performance.now() - started;
    this.restUntil = started + Math.max(0, spent / budget - 1) * TICK_MS;
    this.behind = run.more ? this.behind + 1 : 0;
    this.lookAgainAt = run.indexed === 0 && !run.more ? started + EMPTY_POLL_MS : 0;
    this.onSlice(run);
  }

  private failed(error: unknown): void {
    this.retryAt = performance.now() + RETRY_AFTER_ERROR_MS;
    this.onError(error);
  }
}
