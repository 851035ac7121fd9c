import type { Logger } from '../log.js';

const INTERVAL_MS = 10_000;

/** A request refused without a log entry (PRODUCT §3: 404, 405 and 429), as it arrived. */
export interface Refusal {
  status: 404 | 405 | 429;
  /** Why, for the operator: "no such enabled webhook", "delivery rate limit", … */
  reason: string;
  method: string;
  /** The request target exactly as sent: a URL token is still in it (redact before showing). */
  path: string;
  client: string;
  /** The webhook the path named, where it named one. */
  webhookUid: string | null;
}

/**
 * Every refusal that leaves no log entry comes through `add`. They are counted, not logged one
 * by one: a scanner or a runaway sender would otherwise flood the log and spend the relay's CPU
 * on log lines. One summary line per interval.
 */
export class RefusalTally {
  private counts = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly log: Logger) {
    this.timer = setInterval(() => this.flush(), INTERVAL_MS);
    this.timer.unref();
  }

  add(refusal: Refusal): void {
    const key = `${refusal.status} ${refusal.reason}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  flush(): void {
    if (this.counts.size === 0) return;
    const total = [...this.counts.values()].reduce((a, b) => a + b, 0);
    const parts = [...this.counts].map(([key, n]) => `${key} ×${n}`).join('; ');
    this.counts = new Map();
    this.log.info(`[ingress] refused ${total} request(s) without logging them each: ${parts}`);
  }

  stop(): void {
    clearInterval(this.timer);
    this.flush();
  }
}
