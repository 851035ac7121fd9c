/**
 * What the ingress asks of a limit: take one slot for this key now, or say how long to wait.
 * The in-memory SlidingWindowLimiter answers at once; the shared PostgreSQL limiter answers at
 * once from slots it has reserved and otherwise after one round trip, hence the Promise. The
 * ingress awaits the answer either way (awaiting a number costs a microtask, not a round trip).
 */
export interface RateGate {
  readonly limit: number;
  /** 0 when a slot was taken; otherwise whole seconds until one frees (nothing is taken). */
  take(key: string, now: number): number | Promise<number>;
  /** Drops what no longer counts (memory, or the shared table's old grants); called each minute. */
  sweep(now: number): unknown;
}
