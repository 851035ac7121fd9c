import { performance } from 'node:perf_hooks';
import type { RateGate } from '../../ingress/rate-gate.js';
import { DB_NOW_MS } from './db-clock.js';
import type { PgPool } from './pool.js';

export interface SharedRateLimitOptions {
  /** Keeps limits apart in the shared table: 'deliveries', 'failed-auth'. */
  scope: string;
  limit: number;
  windowMs: number;
  /** How long a replica may keep reserved slots unused before it gives them back. */
  holdMs?: number;
  /** The most slots one round trip reserves (default: a tenth of the limit, at most 1,000). */
  maxBatch?: number;
  /** How long a spent key answers 429 from memory before it asks the database again. */
  denialMemoMs?: number;
  /** Monotonic milliseconds; only differences are used. */
  clock?: () => number;
  /** Giving back unused slots failed (they then count until the window passes them). */
  onError?: (error: unknown) => void;
}

interface Held {
  grantId: number;
  left: number;
  until: number;
  timer: NodeJS.Timeout;
}

interface Waiter {
  resolve: (wait: number) => void;
  reject: (error: unknown) => void;
}

const DEFAULT_HOLD_MS = 1_000;
const DEFAULT_DENIAL_MEMO_MS = 1_000;
/** Per-key memory (batch sizes, remembered 429s) is bounded as in SlidingWindowLimiter. */
const MAX_KEYS = 50_000;

/**
 * A limit shared by every replica, counted on the database's clock (`hookport_reserve_slots`).
 *
 * A replica reserves slots in batches and hands them out from memory, so most takes cost no
 * round trip; a batch starts at 1 per key and doubles while its slots all find a use within the
 * hold (up to `maxBatch`), halving when some go back unused.
 *
 * The guarantee: across all replicas at most `limit` takes succeed in any `windowMs`. A grant made
 * at database time T counts until T + windowMs + holdMs, and its slots are used only within
 * holdMs of the moment its request was sent (before T), so a use at time u has T in
 * [u − holdMs, u]. Every use inside a window [a, a + windowMs) therefore has its grant inside
 * [a − holdMs, a + windowMs), a span the database never lets hold more than `limit` slots.
 *
 * The price: a replica may answer 429 before `limit` takes have succeeded while other replicas
 * hold slots they reserved and have not used: at most (replicas − 1) × (maxBatch − 1) of them,
 * for at most holdMs, after which unused slots are given back. A key spent on the database is
 * remembered for denialMemoMs (≤ the time until a slot frees), so a sender hammering a spent
 * limit costs no round trip per request; that can stretch the early 429s by denialMemoMs.
 *
 * `take`'s `now` is ignored: holds are measured on the monotonic clock, the window on the
 * database's clock.
 */
export class SharedRateLimiter implements RateGate {
  readonly limit: number;
  private readonly scope: string;
  private readonly spanMs: number;
  private readonly holdMs: number;
  private readonly maxBatch: number;
  private readonly denialMemoMs: number;
  private readonly clock: () => number;
  private readonly onError: (error: unknown) => void;
  private readonly held = new Map<string, Held>();
  private readonly batch = new Map<string, number>();
  private readonly denied = new Map<string, { until: number; freeAt: number }>();
  private readonly queues = new Map<string, Waiter[]>();
  private closed = false;

  constructor(
    private readonly pool: PgPool,
    options: SharedRateLimitOptions,
  ) {
    this.scope = options.scope;
    this.limit = options.limit;
    this.holdMs = options.holdMs ?? DEFAULT_HOLD_MS;
    this.spanMs = options.windowMs + this.holdMs;
    // A tenth of the limit bounds the early 429s; 1,000 bounds a limit raised for benchmarks.
    this.maxBatch = Math.max(
      1,
      options.maxBatch ?? Math.min(1_000, Math.floor(options.limit / 10)),
    );
    this.denialMemoMs = options.denialMemoMs ?? DEFAULT_DENIAL_MEMO_MS;
    this.clock = options.clock ?? (() => performance.now());
    this.onError = options.onError ?? (() => undefined);
  }

  take(key: string, _now?: number): number | Promise<number> {
    if (this.closed) return Promise.reject(new Error('The rate limiter is closed.'));
    const now = this.clock();
    if (this.takeHeld(key, now)) return 0;
    const denied = this.denied.get(key);
    if (denied && now < denied.until) return secondsUntil(denied.freeAt, now);
    if (denied) this.denied.delete(key);
    return new Promise((resolve, reject) => {
      const queue = this.queues.get(key);
      if (queue) return void queue.push({ resolve, reject });
      const fresh = [{ resolve, reject }];
      this.queues.set(key, fresh);
      void this.drain(key, fresh);
    });
  }

  /** Gives every unused slot back (at shutdown, so other replicas may use them at once). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.held.keys()].map((key) => this.giveBack(key)));
  }

  /** Deletes this scope's grants that no longer count (one replica at a time, with retention). */
  async sweep(): Promise<number> {
    const result = await this.pool.query(
      `DELETE FROM rate_grants WHERE scope = $1
       AND granted_at <= ${DB_NOW_MS} - $2::BIGINT`,
      [this.scope, this.spanMs],
    );
    return result.rowCount ?? 0;
  }

  private takeHeld(key: string, now: number): boolean {
    const held = this.held.get(key);
    if (!held || held.left === 0 || now >= held.until) return false;
    held.left--;
    if (held.left === 0) {
      clearTimeout(held.timer);
      this.held.delete(key);
      // Every slot was used within the hold: ask for more next time.
      this.setBatch(key, Math.min(this.maxBatch, this.batchOf(key) * 2));
    }
    return true;
  }

  /** One round trip at a time per key; takes that arrive meanwhile share its answer. */
  private async drain(key: string, queue: Waiter[]): Promise<void> {
    let late = 0;
    try {
      while (queue.length > 0) {
        while (queue.length > 0 && this.takeHeld(key, this.clock())) queue.shift()!.resolve(0);
        if (queue.length === 0) break;
        const wanted = Math.min(this.maxBatch, Math.max(queue.length, this.batchOf(key)));
        const sentAt = this.clock();
        const grant = await this.reserve(key, wanted);
        if (grant.granted === 0) {
          const now = this.clock();
          const freeAt = now + grant.retryAfterMs;
          this.remember(this.denied, key, {
            until: Math.min(freeAt, now + this.denialMemoMs),
            freeAt,
          });
          const wait = secondsUntil(freeAt, now);
          for (const waiter of queue.splice(0)) waiter.resolve(wait);
          break;
        }
        if (this.clock() >= sentAt + this.holdMs) {
          // The answer came after the hold: its slots may no longer be used (see the guarantee).
          await this.giveBackGrant(grant.grantId, grant.granted);
          if (++late === 3)
            throw new Error('The database answers too slowly to share rate limits.');
          continue;
        }
        const served = queue.splice(0, grant.granted);
        for (const waiter of served) waiter.resolve(0);
        const left = grant.granted - served.length;
        if (left > 0) this.hold(key, grant.grantId, left, sentAt + this.holdMs);
        // Demand took the whole grant at once: ask for more next time.
        else this.setBatch(key, Math.min(this.maxBatch, this.batchOf(key) * 2));
      }
    } catch (error) {
      for (const waiter of queue.splice(0)) waiter.reject(error);
    } finally {
      this.queues.delete(key);
    }
  }

  private async reserve(
    key: string,
    wanted: number,
  ): Promise<{ grantId: number; granted: number; retryAfterMs: number }> {
    const { rows } = await this.pool.query<{
      grant_id: number | null;
      granted: number;
      retry_after_ms: number | null;
    }>({
      name: 'hookport_reserve_slots',
      text: 'SELECT grant_id, granted, retry_after_ms FROM hookport_reserve_slots($1, $2, $3, $4, $5)',
      values: [this.scope, key, wanted, this.limit, this.spanMs],
    });
    const row = rows[0]!;
    return {
      grantId: row.grant_id ?? 0,
      granted: row.granted,
      retryAfterMs: Math.max(0, row.retry_after_ms ?? 0),
    };
  }

  private hold(key: string, grantId: number, left: number, until: number): void {
    // A hold that ended before its timer ran is given back now, not overwritten with its slots.
    if (this.held.has(key)) void this.giveBack(key);
    else if (this.held.size >= MAX_KEYS) void this.giveBack(this.held.keys().next().value!);
    const timer = setTimeout(() => void this.giveBack(key), Math.max(0, until - this.clock()));
    timer.unref();
    this.held.set(key, { grantId, left, until, timer });
  }

  /** The hold ended with slots unused: they go back, and this key asks for fewer next time. */
  private async giveBack(key: string): Promise<void> {
    const held = this.held.get(key);
    if (!held) return;
    clearTimeout(held.timer);
    this.held.delete(key);
    this.setBatch(key, Math.max(1, Math.floor(this.batchOf(key) / 2)));
    await this.giveBackGrant(held.grantId, held.left);
  }

  private async giveBackGrant(grantId: number, unused: number): Promise<void> {
    try {
      await this.pool.query('UPDATE rate_grants SET n = greatest(n - $2, 0) WHERE id = $1', [
        grantId,
        unused,
      ]);
    } catch (error) {
      this.onError(error);
    }
  }

  private batchOf(key: string): number {
    return this.batch.get(key) ?? 1;
  }

  private setBatch(key: string, size: number): void {
    if (size <= 1) this.batch.delete(key);
    else this.remember(this.batch, key, size);
  }

  private remember<V>(map: Map<string, V>, key: string, value: V): void {
    if (!map.has(key) && map.size >= MAX_KEYS) map.delete(map.keys().next().value!);
    map.set(key, value);
  }
}

const secondsUntil = (at: number, now: number): number => Math.max(1, Math.ceil((at - now) / 1000));
