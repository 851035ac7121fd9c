/**
 * Counts events per key over a sliding window. Lives in memory on purpose: losing it on restart
 * only relaxes throttling, never loses a delivery.
 */
export class SlidingWindowLimiter {
  private readonly events = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    /** Bounds memory when keys include client addresses an attacker can vary. */
    private readonly maxKeys = 50_000,
  ) {}

  /** Whole seconds until a slot frees; 0 when one is free now. */
  retryAfter(key: string, now: number): number {
    const times = this.live(key, now);
    if (times.length < this.limit) return 0;
    const oldestThatMustExpire = times[times.length - this.limit]!;
    return Math.max(1, Math.ceil((oldestThatMustExpire + this.windowMs - now) / 1000));
  }

  record(key: string, now: number): void {
    let times = this.events.get(key);
    if (!times) {
      if (this.events.size >= this.maxKeys) this.sweep(now);
      if (this.events.size >= this.maxKeys) this.events.delete(this.events.keys().next().value!);
      times = [];
      this.events.set(key, times);
    }
    times.push(now);
  }

  /** Records and returns 0 when a slot is free; otherwise records nothing and returns the wait. */
  take(key: string, now: number): number {
    const wait = this.retryAfter(key, now);
    if (wait === 0) this.record(key, now);
    return wait;
  }

  /** Drops keys with no event left in the window. */
  sweep(now: number): void {
    for (const key of [...this.events.keys()]) this.live(key, now);
  }

  private live(key: string, now: number): number[] {
    const times = this.events.get(key);
    if (!times) return [];
    const cutoff = now - this.windowMs;
    let expired = 0;
    while (expired < times.length && times[expired]! <= cutoff) expired++;
    if (expired > 0) times.splice(0, expired);
    if (times.length === 0) this.events.delete(key);
    return times;
  }
}
