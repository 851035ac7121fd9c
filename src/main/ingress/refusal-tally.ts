import type { Logger } from '../log.js';

const INTERVAL_MS = 10_000;

/**
 * 404s and 429s are counted, not logged one by one: a scanner or a runaway sender would
 * otherwise flood the log and spend the relay's CPU on log lines. One summary line per interval.
 */
export class RefusalTally {
  private counts = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly log: Logger) {
    this.timer = setInterval(() => this.flush(), INTERVAL_MS);
    this.timer.unref();
  }

  add(status: 404 | 429, why: string): void {
    const key = `${status} ${why}`;
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
