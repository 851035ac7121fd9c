/** A timer the detector runs on; tests pass one they tick by hand. */
export interface Ticker {
  every(ms: number, tick: () => void): () => void;
}

export const realTicker: Ticker = {
  every(ms, tick) {
    const timer = setInterval(tick, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};

export const WAKE_TICK_MS = 1000;
/** More than this between two one-second ticks on the wall clock: the machine slept (§20). */
export const WAKE_GAP_MS = 10_000;

/**
 * Notices that the machine slept (PRODUCT §20): a one-second timer that finds more than 10 s
 * passed on the wall clock since its last tick. Timers do not run while a laptop sleeps, and the
 * wall clock goes on, so the first tick after waking sees the gap.
 */
export class WakeDetector {
  private last: number;
  private cancel: (() => void) | null = null;

  constructor(
    private readonly onWake: (at: number, sleptSeconds: number) => void,
    private readonly now: () => number = Date.now,
    private readonly ticker: Ticker = realTicker,
  ) {
    this.last = now();
  }

  start(): void {
    this.last = this.now();
    this.cancel = this.ticker.every(WAKE_TICK_MS, () => this.tick());
  }

  stop(): void {
    this.cancel?.();
    this.cancel = null;
  }

  /**
   * The operating system said it woke (Electron's powerMonitor `resume`): reported at once, and
   * the timer's next tick does not report the same sleep again.
   */
  resumed(at: number, sleptSeconds: number): void {
    this.last = at;
    this.onWake(at, sleptSeconds);
  }

  private tick(): void {
    const at = this.now();
    const gap = at - this.last;
    this.last = at;
    if (gap > WAKE_GAP_MS) this.onWake(at, Math.round((gap - WAKE_TICK_MS) / 1000));
  }
}
