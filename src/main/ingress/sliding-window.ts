/**
 * The times of one key's events still in the window, oldest first, in a ring that grows to at
 * most `limit` entries: the decision only ever looks at the newest `limit`. A typed array, so that
 * a high limit (tens of thousands a minute) costs neither a shift per event nor garbage.
 */
class EventTimes {
  private times = new Float64Array(8);
  private head = 0;
  count = 0;

  constructor(private readonly limit: number) {}

  /** The `index`th oldest time still kept. */
  at(index: number): number {
    return this.times[(this.head + index) % this.times.length]!;
  }

  push(time: number): void {
    if (this.count === this.limit) this.dropOldest(1);
    else if (this.count === this.times.length) this.grow();
    this.times[(this.head + this.count) % this.times.length] = time;
    this.count++;
  }

  /** Forgets the times at or before `cutoff`. */
  expire(cutoff: number): void {
    let expired = 0;
    while (expired < this.count && this.at(expired) <= cutoff) expired++;
    this.dropOldest(expired);
  }

  private dropOldest(n: number): void {
    this.head = (this.head + n) % this.times.length;
    this.count -= n;
  }

  private grow(): void {
    const grown = new Float64Array(Math.min(this.limit, this.times.length * 2));
    for (let i = 0; i < this.count; i++) grown[i] = this.at(i);
    this.times = grown;
    this.head = 0;
  }
}

/**
 * Counts events per key over a sliding window. Lives in memory on purpose: losing it on restart
 * only relaxes throttling, never loses a delivery.
 */
export class SlidingWindowLimiter {
  private readonly events = new Map<string, EventTimes>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    /** Bounds memory when keys include client addresses an attacker can vary. */
    private readonly maxKeys = 50_000,
  ) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`a rate limit is a whole number of at least 1, not ${limit}`);
  }

  /** Whole seconds until a slot frees; 0 when one is free now. */
  retryAfter(key: string, now: number): number {
    const times = this.live(key, now);
    if (!times || times.count < this.limit) return 0;
    const oldestThatMustExpire = times.at(times.count - this.limit);
    return Math.max(1, Math.ceil((oldestThatMustExpire + this.windowMs - now) / 1000));
  }

  record(key: string, now: number): void {
    let times = this.events.get(key);
    if (!times) {
      if (this.events.size >= this.maxKeys) this.sweep(now);
      if (this.events.size >= this.maxKeys) this.events.delete(this.events.keys().next().value!);
      times = new EventTimes(this.limit);
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

  private live(key: string, now: number): EventTimes | undefined {
    const times = this.events.get(key);
    if (!times) return undefined;
    times.expire(now - this.windowMs);
    if (times.count > 0) return times;
    this.events.delete(key);
    return undefined;
  }
}
