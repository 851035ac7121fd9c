import { performance } from 'node:perf_hooks';

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
  /**
   * While the writer's own commits have taken less than `below` of the recent time (see
   * `WriterLoad`): slices of this size at `share × (1 − load / below)`, never less than the busy
   * or behind share. A sender 5 times a second kept the relay "busy" and the index at 4–10 % of
   * the time, a restart's 50,000 queued entries indexed at 19 a second, while the writer thread
   * was idle 95 % of it. A saturating sender's commits fill the thread, and its share is the
   * busy one again.
   */
  light?: SliceSize & { below: number };
}

/**
 * The share of recent time the writer spent committing: each commit's duration, decayed with a
 * half-life of `HALF_LIFE_MS` (a sender's bursts count for a few seconds, not for good).
 */
export class WriterLoad {
  static readonly HALF_LIFE_MS = 1_000;
  /** The decayed sum's value for a writer busy all the time: ∫ 2^(−t/H) dt = H / ln 2. */
  private static readonly FULL = WriterLoad.HALF_LIFE_MS / Math.LN2;
  private busyMs = 0;
  private at = 0;

  /** A commit that took `ms`, ending `now`. */
  add(ms: number, now: number): void {
    this.decayTo(now);
    this.busyMs += ms;
  }

  /** 0 (idle) to 1 (committing all the time). */
  share(now: number): number {
    this.decayTo(now);
    return Math.min(1, this.busyMs / WriterLoad.FULL);
  }

  private decayTo(now: number): void {
    if (now > this.at) this.busyMs *= 2 ** (-(now - this.at) / WriterLoad.HALF_LIFE_MS);
    this.at = Math.max(this.at, now);
  }
}

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

export interface IndexRun {
  indexed: number;
  /** Entries are still queued: the budget ran out first. */
  more: boolean;
  /** Entries larger than the slice's `largestEntry` are still queued, passed over. */
  deferred?: boolean;
  /** Entries gone (or their payload dropped) whose rows the slice removed (SQLite's index). */
  forgotten?: number;
}

/**
 * What `SearchIndexer` paces: one slice of indexing of about `budgetMs`. SQLite's index answers
 * in the caller's tick (better-sqlite3); PostgreSQL's over the network.
 */
export interface IndexSlices {
  /** `largestEntry`: see `SliceSize`; an index that ignores it takes entries in order. */
  indexSome(budgetMs: number, largestEntry?: number): IndexRun | Promise<IndexRun>;
  /**
   * An index that merges its segments apart from its commits (SQLite's, see search-index.ts):
   * about `budgetMs` of that; true while there is more. Called only for a slice with nothing
   * queued and no commit since the last one, at the state's share.
   */
  mergeSome?(budgetMs: number): boolean;
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
  /** The last slice found the queue empty (nothing queued, nothing passed over). */
  private queueEmpty = false;
  /** Segments may be left to merge: since the start, or entries were indexed since. */
  private merging = true;
  /** A slice that answers asynchronously and has not yet: ticks wait for it. */
  private slicing: Promise<void> | null = null;
  private readonly tickMs: number;
  private readonly load = new WriterLoad();

  constructor(
    private readonly index: IndexSlices,
    private readonly pacing: IndexPacing,
    private readonly onError: (error: unknown) => void,
    private readonly onSlice: (run: IndexRun) => void = () => {},
    /** After each merge slice (`mergesLeft` says whether more are due). */
    private readonly onMerged: () => void = () => {},
  ) {
    // Often enough that no state's slices come much later than its share allows.
    const every = ({ ms, share }: SliceSize): number => ms / share;
    const sizes = [
      pacing.busy,
      pacing.behind,
      pacing.idle,
      ...(pacing.light ? [pacing.light] : []),
    ];
    this.tickMs = Math.min(...sizes.map(every)) / 2;
  }

  start(): void {
    this.timer = setInterval(() => this.tick(), this.tickMs);
    this.timer.unref();
  }

  /**
   * A commit ended now; `commitMs`: how long the relay was busy on its account (the writer's
   * commit and the ingress's work for it: see writer-thread.ts; 0: not measured).
   */
  markBusy(commitMs = 0): void {
    this.busy = true;
    this.lastBusyAt = performance.now();
    if (commitMs > 0) this.load.add(commitMs, this.lastBusyAt);
  }

  /** Segments may be left to merge (an index that merges apart from its commits: SQLite's). */
  mergesLeft(): boolean {
    return this.merging && this.index.mergeSome !== undefined;
  }

  /** The writer's share of recent time in commits (see `WriterLoad`). */
  writerLoad(): number {
    return this.load.share(performance.now());
  }

  tick(): void {
    const started = performance.now();
    if (this.slicing || started < this.retryAt || started < this.nextAt) return;
    if (!this.busy && started < this.lookAgainAt) return;
    const quiet = !this.busy && started - this.lastBusyAt >= (this.pacing.quietAfterMs ?? 0);
    const size = quiet
      ? this.pacing.idle
      : (this.lightSize(started) ??
        (started - this.caughtUpAt >= BEHIND_AFTER_MS ? this.pacing.behind : this.pacing.busy));
    // No commit since the last slice, which found the queue empty: merging is what is left. At
    // the state's share, so that under traffic that never pauses the file still gives back what
    // retention deletes (merges drop deleted rows); the next commit's entries come first.
    const nothingNew = !this.busy && this.queueEmpty;
    this.busy = false;
    if (nothingNew && this.merging && this.index.mergeSome) {
      return this.merged(started, size, this.index.mergeSome.bind(this.index));
    }
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

  /** The light size at the writer's load now, or undefined when the load is not light. */
  private lightSize(now: number): SliceSize | undefined {
    const { light, busy, behind } = this.pacing;
    if (!light) return undefined;
    const load = this.load.share(now);
    if (load >= light.below) return undefined;
    const share = Math.max(light.share * (1 - load / light.below), busy.share, behind.share);
    return { ms: light.ms, share, largestEntry: light.largestEntry };
  }

  /**
   * Entries left the log (a prune). Anything queued to be forgotten goes first (a slice forgets
   * before it indexes), then the merges, which on SQLite look at how much of the index the
   * deleted entries' rows have become (search-index-purge.ts). On a quiet relay whose queue was
   * found empty, ticks would otherwise go on merging first: when a prune queued its rows to be
   * forgotten, 134,599 still waited behind the merges a minute after a night's prune.
   */
  pruned(): void {
    this.queueEmpty = false;
    this.lookAgainAt = 0;
    this.merging = true;
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
    this.queueEmpty = !run.more && !run.deferred;
    if (run.indexed > 0 || (run.forgotten ?? 0) > 0) this.merging = true;
    this.deferringSince = run.deferred ? (this.deferringSince ?? now) : null;
    const empty = run.indexed === 0 && !run.forgotten && !run.more && !run.deferred;
    this.lookAgainAt = empty ? started + EMPTY_POLL_MS : 0;
    this.onSlice(run);
  }

  private merged(started: number, size: SliceSize, mergeSome: (budgetMs: number) => boolean): void {
    try {
      this.merging = mergeSome(size.ms);
    } catch (error) {
      return this.failed(error);
    }
    const now = performance.now();
    this.nextAt = started + Math.min(now - started, size.ms) / size.share;
    this.lookAgainAt = this.merging ? 0 : started + EMPTY_POLL_MS;
    this.onMerged();
  }

  private failed(error: unknown): void {
    this.retryAt = performance.now() + RETRY_AFTER_ERROR_MS;
    this.onError(error);
  }
}
