import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { Logger } from '../log.js';

/** One window of the event loop's delay is judged every this often. */
const WINDOW_MS = 10_000;
/** A window whose 99th percentile is above this is a held loop: a sender waited that long. */
export const LOOP_DELAY_ALARM_MS = 100;
/** Raised after this many held windows in a row (30 s); ended after as many calm ones. */
const WINDOWS = 3;

export interface LoopDelayWindow {
  p99Ms: number;
  maxMs: number;
}

/**
 * Watches the delay of the thread that answers senders (the event loop of the relay's main
 * thread): every request waits behind whatever runs there. Each 10 s window's delay is kept for
 * /metrics; when the windows' 99th percentile stays above 100 ms for 30 s, the relay logs an
 * alarm (providers give up after 3–10 s, and a held loop is how a relay gets there), and a
 * recovery once it has been calm as long. Short spikes (a garbage collection) raise nothing.
 */
export class LoopDelayWatch {
  private readonly histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });
  private timer: NodeJS.Timeout | null = null;
  private held = 0;
  private calm = 0;
  private raised = false;
  private last: LoopDelayWindow = { p99Ms: 0, maxMs: 0 };

  constructor(private readonly log: Logger) {}

  start(): void {
    this.histogram.enable();
    this.timer = setInterval(() => this.judge(this.read()), WINDOW_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.histogram.disable();
  }

  /** Raised now: the loop has been held for the last 30 s or more. */
  get alarm(): boolean {
    return this.raised;
  }

  /** The last whole window's delay. */
  get lastWindow(): LoopDelayWindow {
    return this.last;
  }

  /** Takes the window measured so far (and starts the next one). */
  read(): LoopDelayWindow {
    const window = {
      p99Ms: this.histogram.percentile(99) / 1e6,
      maxMs: this.histogram.max / 1e6,
    };
    this.histogram.reset();
    return window;
  }

  /** One window's verdict; public so that a test can feed windows without waiting 30 s. */
  judge(window: LoopDelayWindow): void {
    this.last = window;
    const high = window.p99Ms > LOOP_DELAY_ALARM_MS;
    this.held = high ? this.held + 1 : 0;
    this.calm = high ? 0 : this.calm + 1;
    if (!this.raised && this.held >= WINDOWS) {
      this.raised = true;
      this.log.error(
        `[alarms] The relay's event loop has been held for ${(WINDOWS * WINDOW_MS) / 1000} s ` +
          `(99th percentile ${Math.round(window.p99Ms)} ms, longest ${Math.round(window.maxMs)} ms): ` +
          'senders wait that long for their answer; providers give up after 3–10 s.',
      );
    } else if (this.raised && this.calm >= WINDOWS) {
      this.raised = false;
      this.log.info("[alarms] Back to normal: the relay's event loop answers in time again.");
    }
  }
}
