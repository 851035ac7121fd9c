import { WEBHOOK_UID_PATTERN } from '../../shared/contract/common.js';
import type { Logger } from '../log.js';

const SUMMARY_INTERVAL_MS = 10_000;
/** How many refused requests are kept (PRODUCT.md §14: at least the last 1,000). */
export const REFUSALS_KEPT = 1_000;
const MAX_PATH = 200;
const MINUTE_MS = 60_000;
const HOUR_MINUTES = 60;

export const REFUSAL_STATUSES = [404, 405, 429] as const;
export type RefusalStatus = (typeof REFUSAL_STATUSES)[number];

/** One refused request, as the ingress hands it over: plain data, the path as received. */
export interface Refusal {
  at: number;
  method: string;
  /** The request target as received; tokens are taken out before it is kept. */
  path: string;
  status: RefusalStatus;
  reason: string;
  client: string;
  /** The webhook the path names, when the relay has it (enabled or not); otherwise null. */
  webhookUid: string | null;
}

export type RefusalCounts = Record<RefusalStatus, number>;

const zero = (): RefusalCounts => ({ 404: 0, 405: 0, 429: 0 });
const slot = (status: RefusalStatus): 0 | 1 | 2 => (status === 404 ? 0 : status === 405 ? 1 : 2);
/** A segment a URL token could be: long and URL-safe (generated tokens are 43 characters). */
const TOKEN_LIKE = /^[A-Za-z0-9._~-]{16,}$/;
const PLAIN_WEBHOOK_PATH = /^\/webhooks\/w\/wh_[a-z0-9]{24}$/;

/**
 * The path as it may be kept and shown: no query (it may carry a credential), everything after
 * `/webhooks/w/<uid>/` and any other segment that could be a token as `{token}`, at most 200
 * characters. A webhook UID is not a secret and stays.
 */
export function redactPath(raw: string): string {
  // A webhook's own path (a scanner's 404, a runaway sender's 429) has nothing to take out.
  if (PLAIN_WEBHOOK_PATH.test(raw)) return raw;
  const queryAt = raw.indexOf('?');
  const path = queryAt === -1 ? raw : raw.slice(0, queryAt);
  const segments = path.split('/');
  const ingressAt = segments.findIndex(
    (s, i) => s === 'w' && segments[i - 1] === 'webhooks' && i === 2,
  );
  const kept = segments.map((segment, i) => {
    if (ingressAt !== -1 && i > ingressAt + 1) return '{token}';
    if (WEBHOOK_UID_PATTERN.test(segment)) return segment;
    return TOKEN_LIKE.test(segment) ? '{token}' : segment;
  });
  const shown = kept.join('/') + (queryAt === -1 ? '' : '?…');
  return shown.length > MAX_PATH ? `${shown.slice(0, MAX_PATH)}…` : shown;
}

/**
 * Refused requests the log does not keep (404, 405, 429): the newest REFUSALS_KEPT in a ring
 * (bounded memory, never the disk), counts by status since start and over the last hour, and
 * one summary log line per interval instead of a line each, so a scanner or a runaway sender
 * can flood neither the log nor the relay's CPU. Noting one is O(1) and builds no object: the
 * ring is a set of columns (a refusal object is made only when the list is read), and a path
 * like the last one shares its string, so that a flood at one URL keeps little more than its
 * counts alive past the young generation.
 */
export class RefusalTally {
  private readonly at = new Float64Array(REFUSALS_KEPT);
  private readonly status = new Uint16Array(REFUSALS_KEPT);
  private readonly method = new Array<string>(REFUSALS_KEPT).fill('');
  private readonly path = new Array<string>(REFUSALS_KEPT).fill('');
  private readonly reason = new Array<string>(REFUSALS_KEPT).fill('');
  private readonly client = new Array<string>(REFUSALS_KEPT).fill('');
  private readonly webhookUid = new Array<string | null>(REFUSALS_KEPT).fill(null);
  private next = 0;
  private filled = 0;
  /** The last path as received and as kept (redacted): the same again is neither redacted nor kept twice. */
  private lastRaw = '';
  private lastShown = '';
  private readonly totals = zero();
  /** A ring of the last hour's minutes: which minute each slot holds, and its counts by status. */
  private readonly minuteOf = new Float64Array(HOUR_MINUTES).fill(-1);
  private readonly perMinute = new Uint32Array(HOUR_MINUTES * 3);
  /** Since the last summary line: counts by status, then by reason (no key string per request). */
  private summary = new Map<RefusalStatus, Map<string, number>>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly log: Logger) {
    this.timer = setInterval(() => this.flush(), SUMMARY_INTERVAL_MS);
    this.timer.unref();
  }

  /** One refused request, as a whole (tests, and any caller that has one). */
  add(refusal: Refusal): void {
    const { at, method, path, status, reason, client, webhookUid } = refusal;
    this.note(at, method, path, status, reason, client, webhookUid);
  }

  /** The ingress's one call per refused request (`path` as received: it is redacted here). */
  note(
    at: number,
    method: string,
    path: string,
    status: RefusalStatus,
    reason: string,
    client: string,
    webhookUid: string | null,
  ): void {
    if (path !== this.lastRaw) {
      this.lastRaw = path;
      this.lastShown = redactPath(path);
    }
    const i = this.next;
    this.at[i] = at;
    this.status[i] = status;
    this.method[i] = method;
    this.path[i] = this.lastShown;
    this.reason[i] = reason;
    this.client[i] = client;
    this.webhookUid[i] = webhookUid;
    this.next = (i + 1) % REFUSALS_KEPT;
    if (this.filled < REFUSALS_KEPT) this.filled++;
    this.totals[status]++;
    const minute = Math.floor(at / MINUTE_MS);
    const slotAt = minute % HOUR_MINUTES;
    if (this.minuteOf[slotAt] !== minute) {
      this.minuteOf[slotAt] = minute;
      this.perMinute.fill(0, slotAt * 3, slotAt * 3 + 3);
    }
    this.perMinute[slotAt * 3 + slot(status)]!++;
    let reasons = this.summary.get(status);
    if (!reasons) this.summary.set(status, (reasons = new Map<string, number>()));
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }

  /** Newest first; only those naming `webhookUid` when given. */
  newest(limit: number, webhookUid?: string): Refusal[] {
    const out: Refusal[] = [];
    for (let n = 1; n <= this.filled && out.length < limit; n++) {
      const i = (this.next - n + REFUSALS_KEPT) % REFUSALS_KEPT;
      if (webhookUid !== undefined && this.webhookUid[i] !== webhookUid) continue;
      out.push({
        at: this.at[i]!,
        method: this.method[i]!,
        path: this.path[i]!,
        status: this.status[i] as RefusalStatus,
        reason: this.reason[i]!,
        client: this.client[i]!,
        webhookUid: this.webhookUid[i] ?? null,
      });
    }
    return out;
  }

  /** Every refusal since the relay started, by status. */
  countsSinceStart(): RefusalCounts {
    return { ...this.totals };
  }

  /** Refusals in the hour before `now` (by whole minutes), by status. */
  countsLastHour(now: number): RefusalCounts {
    const counts = zero();
    const current = Math.floor(now / MINUTE_MS);
    for (let at = 0; at < HOUR_MINUTES; at++) {
      const minute = this.minuteOf[at]!;
      if (minute <= current - HOUR_MINUTES || minute > current) continue;
      counts[404] += this.perMinute[at * 3]!;
      counts[405] += this.perMinute[at * 3 + 1]!;
      counts[429] += this.perMinute[at * 3 + 2]!;
    }
    return counts;
  }

  flush(): void {
    if (this.summary.size === 0) return;
    const counts = [...this.summary].flatMap(([status, reasons]) =>
      [...reasons].map(([reason, n]) => ({ key: `${status} ${reason}`, n })),
    );
    const total = counts.reduce((sum, { n }) => sum + n, 0);
    const parts = counts.map(({ key, n }) => `${key} ×${n}`).join('; ');
    this.summary = new Map();
    this.log.info(`[ingress] refused ${total} request(s) without logging them each: ${parts}`);
  }

  stop(): void {
    clearInterval(this.timer);
    this.flush();
  }
}
