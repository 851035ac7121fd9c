import { performance } from 'node:perf_hooks';
import type { Db } from './db.js';
import { neverWanted } from './writer-yield.js';

/** One state's slices: how long each may take (it takes at least one entry), and how often. */
export interface SliceSize {
  ms: number;
  /** The share of time the index may take: a slice of t ms is followed by t / share - t of rest. */
  share: number;
  /**
   * Payloads larger than this many bytes wait for a slice without the limit (a quiet one, or any
   * once one of them has waited `LARGE_WAIT_MS`). Without it, entries go in order, whatever size.
   */
  largestEntry?: number;
}

/**
 * How the index takes its time, by what the ingress is doing. Each slice holds what accept
 * commits need while it runs (SQLite's write lock on the writer thread; on PostgreSQL, database
 * time every relay's accepts share), so the store chooses the grain and the shares.
 */
export interface IndexPacing {
  /** While deliveries are being committed. */
  busy: SliceSize;
  /** Still busy, and behind for 5 s: the busy share would never shrink the queue. */
  behind: SliceSize;
  /** When the ingress has been quiet since the last slice (and for `quietAfterMs`). */
  idle: SliceSize;
  /**
   * How long after the last commit the ingress counts as quiet (default 0: no commit since the
   * last slice). A sender 5 times a second left gaps of 200 ms that each counted as quiet, so
   * the idle share was taken between its deliveries.
   */
  quietAfterMs?: number;
}

/**
 * The writer thread: a commit waits about half a millisecond for the index behind a 1 KB payload,
 * and once the relay is quiet the index takes most of the thread (a delivery arriving then waits
 * one 5 ms slice at most, and the slices after it are busy ones). A 64 KB payload takes 4–6 ms to
 * tokenize and flush, the thread's whole time for several commits: while deliveries arrive, such
 * entries wait for a quiet moment (searches scan them meanwhile) and smaller ones go past them.
 */
export const SQLITE_PACING: IndexPacing = {
  busy: { ms: 0.5, share: 0.04, largestEntry: 8 * 1024 },
  behind: { ms: 0.5, share: 0.1, largestEntry: 8 * 1024 },
  idle: { ms: 5, share: 0.8 },
  // A sender's deliveries seconds apart are still a busy relay: the idle share waits for a lull.
  quietAfterMs: 2_000,
};
/**
 * Each PostgreSQL slice is a transaction of round trips: fewer, longer ones. A quiet relay's
 * slices still compete with the other relays' accepts on the database: less than half of it.
 */
export const POSTGRES_PACING: IndexPacing = {
  busy: { ms: 2, share: 0.04 },
  behind: { ms: 5, share: 0.1 },
  idle: { ms: 20, share: 0.4 },
};

const BEHIND_AFTER_MS = 5_000;
/**
 * How long large entries may wait for a quiet moment: after that, slices take the oldest entries
 * first again, whatever their size, until none that was passed over is left (under load that
 * never pauses, they still get the index's share rather than wait without bound).
 */
export const LARGE_WAIT_MS = 60_000;
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
  /** Entries larger than the slice's `largestEntry` are still queued, passed over. */
  deferred?: boolean;
}

/**
 * Indexes queued log entries (see migration 004) into the trigram index. Each call is one
 * transaction that stops once `budgetMs` is spent (after at least one entry), so a burst of large
 * payloads never holds the database, or the event loop, for long.
 */
export function createSearchIndex(db: Db, lockWanted: () => boolean = neverWanted) {
  const queued = db.prepare<[number], { rowid: number }>(
    'SELECT delivery_rowid AS rowid FROM delivery_search_pending ORDER BY delivery_rowid LIMIT ?',
  );
  // The bytes are UTF-8 (they parsed as JSON); CAST reads them as text without a copy in JS.
  // The summary (version 11) shares the event type's column, on a line of its own.
  const index = db.prepare<[number]>(`
    INSERT INTO delivery_search (rowid, id, identity, event_type, body)
    SELECT d.rowid, d.id, d.identity,
      CASE WHEN d.summary IS NULL THEN d.event_type
           ELSE coalesce(d.event_type, '') || char(10) || d.summary END,
      CAST(p.body AS TEXT)
    FROM deliveries d LEFT JOIN payloads p ON p.delivery_id = d.id WHERE d.rowid = ?`);
  const dequeue = db.prepare<[number]>(
    'DELETE FROM delivery_search_pending WHERE delivery_rowid = ?',
  );
  // length() of a BLOB reads its size from the record header, not its overflow pages.
  const queuedUpTo = db.prepare<
    { after: number; largest: number; limit: number },
    { rowid: number }
  >(`
    SELECT q.delivery_rowid AS rowid FROM delivery_search_pending q
      JOIN deliveries d ON d.rowid = q.delivery_rowid
      LEFT JOIN payloads p ON p.delivery_id = d.id
    WHERE q.delivery_rowid > @after AND coalesce(length(p.body), 0) <= @largest
    ORDER BY q.delivery_rowid LIMIT @limit`);
  const lastQueued = db.prepare<[], { rowid: number | null }>(
    'SELECT max(delivery_rowid) AS rowid FROM delivery_search_pending',
  );
  const queuedAtOrBefore = db
    .prepare<[number], number>(
      'SELECT EXISTS (SELECT 1 FROM delivery_search_pending WHERE delivery_rowid <= ?)',
    )
    .pluck();
  const countQueued = db.prepare<[], { n: number }>(
    'SELECT count(*) AS n FROM delivery_search_pending',
  );

  /**
   * Where slices with a size limit go on from, so that none scans the entries it passed over
   * again: every entry still queued at or before it is too large for them. Slices without the
   * limit take the oldest entries first, these among them. (An entry queued again behind it, a
   * payload dropped from an indexed entry, waits for such a slice too.)
   */
  let passedUpTo = 0;
  const BATCH = 32;

  const indexSlice = db.transaction((budgetMs: number, largest: number | undefined): IndexRun => {
    const started = performance.now();
    const deferred = (): boolean => passedUpTo > 0 && queuedAtOrBefore.get(passedUpTo) === 1;
    let indexed = 0;
    for (;;) {
      const batch =
        largest === undefined
          ? queued.all(BATCH)
          : queuedUpTo.all({ after: passedUpTo, largest, limit: BATCH });
      for (const { rowid } of batch) {
        index.run(rowid);
        dequeue.run(rowid);
        indexed++;
        if (largest !== undefined) passedUpTo = rowid;
        // Someone waits for the write lock (writer-yield.ts): this slice ends here.
        if (performance.now() - started >= budgetMs || lockWanted()) {
          return { indexed, more: true, deferred: deferred() };
        }
      }
      if (batch.length < BATCH) {
        // The end of the queue: what is left after the last entry taken was all too large.
        if (largest !== undefined) passedUpTo = Math.max(passedUpTo, lastQueued.get()!.rowid ?? 0);
        return { indexed, more: false, deferred: deferred() };
      }
    }
  });

  /**
   * Without an fsync of its own: an indexing transaction lost to a crash loses no delivery (it
   * dequeues what it indexes, so the entries stay queued), and the next accept commit's fsync
   * makes it durable with its own. Its fsync would be paid while holding the write lock.
   */
  const indexSome = (budgetMs: number, largestEntry?: number): IndexRun => {
    if (lockWanted()) return { indexed: 0, more: true, deferred: passedUpTo > 0 };
    db.pragma('synchronous = NORMAL');
    try {
      return indexSlice(budgetMs, largestEntry);
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
  /** `largestEntry`: see `SliceSize`; an index that ignores it takes entries in order. */
  indexSome(budgetMs: number, largestEntry?: number): IndexRun | Promise<IndexRun>;
}

/** After a failed slice (PostgreSQL unreachable, say): wait this long before the next one. */
const RETRY_AFTER_ERROR_MS = 5_000;

/**
 * Runs the search index in the background: a share of the time while deliveries are arriving
 * (more if that has not kept up for a while), and more once the ingress is quiet, in slices the
 * store's pacing sizes. `markBusy` is called on every commit. SQLite's writer thread runs it
 * between its commits (see writer-thread.ts), each PostgreSQL relay beside its accept path
 * (postgres/search-index.ts); `onSlice` hears how each slice went. A slice that fails is reported
 * and retried a while later.
 */
export class SearchIndexer {
  private busy = false;
  private lastBusyAt = -Infinity;
  /** When the queue was last found empty (or indexing began). */
  private caughtUpAt = performance.now();
  private timer: NodeJS.Timeout | null = null;
  /**
   * When the next slice may start: the last one's time divided by the state's share. A slice
   * indexes at least one entry, and a 64 KB payload may take several budgets: while deliveries
   * arrive, such a slice is paid for by a longer rest, so the index never takes more than its
   * share of what their commits wait for.
   */
  private nextAt = 0;
  private retryAt = 0;
  private lookAgainAt = 0;
  /** Since when a slice has passed over large entries, still queued. */
  private deferringSince: number | null = null;
  /** A slice that answers asynchronously and has not yet: ticks wait for it. */
  private slicing: Promise<void> | null = null;
  private readonly tickMs: number;

  constructor(
    private readonly index: IndexSlices,
    private readonly pacing: IndexPacing,
    private readonly onError: (error: unknown) => void,
    private readonly onSlice: (run: IndexRun) => void = () => {},
  ) {
    // Often enough that no state's slices come much later than its share allows.
    const every = ({ ms, share }: SliceSize): number => ms / share;
    this.tickMs = Math.min(every(pacing.busy), every(pacing.behind), every(pacing.idle)) / 2;
  }

  start(): void {
    this.timer = setInterval(() => this.tick(), this.tickMs);
    this.timer.unref();
  }

  markBusy(): void {
    this.busy = true;
    this.lastBusyAt = performance.now();
  }

  tick(): void {
    const started = performance.now();
    if (this.slicing || started < this.retryAt || started < this.nextAt) return;
    if (!this.busy && started < this.lookAgainAt) return;
    const quiet = !this.busy && started - this.lastBusyAt >= (this.pacing.quietAfterMs ?? 0);
    const size = quiet
      ? this.pacing.idle
      : started - this.caughtUpAt >= BEHIND_AFTER_MS
        ? this.pacing.behind
        : this.pacing.busy;
    this.busy = false;
    const overdue = this.deferringSince !== null && started - this.deferringSince >= LARGE_WAIT_MS;
    const largest = quiet || overdue ? undefined : size.largestEntry;
    try {
      const run = this.index.indexSome(size.ms, largest);
      if (!(run instanceof Promise)) return this.sliced(started, size, quiet, run);
      this.slicing = run
        .then(
          (done) => this.sliced(started, size, quiet, done),
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

  private sliced(started: number, { ms, share }: SliceSize, quiet: boolean, run: IndexRun): void {
    const now = performance.now();
    // While quiet, a slice that overran its budget (one large payload) rests as a budget's slice
    // would: the relay is catching up after a burst, and a proportional rest after each large
    // entry stretched a PostgreSQL catch-up at 64 KB by half again. On PostgreSQL such entries
    // take more than the idle share of the database while they last; other relays' accepts
    // share its CPU with them but never wait on their rows.
    const charged = quiet ? Math.min(now - started, ms) : now - started;
    this.nextAt = started + charged / share;
    if (!run.more) this.caughtUpAt = now;
    this.deferringSince = run.deferred ? (this.deferringSince ?? now) : null;
    const empty = run.indexed === 0 && !run.more && !run.deferred;
    this.lookAgainAt = empty ? started + EMPTY_POLL_MS : 0;
    this.onSlice(run);
  }

  private failed(error: unknown): void {
    this.retryAt = performance.now() + RETRY_AFTER_ERROR_MS;
    this.onError(error);
  }
}
