import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** How long a scan may hold the event loop (which answers senders) before it lets it turn. */
export const SCAN_SLICE_MS = 5;

/**
 * Whose slice is next, among every scan running at once: one at a time, in the order asked. A
 * `view` token may start many scans together; each let the loop turn between its own slices,
 * but their `setImmediate`s all ran in the same turn, so N scans held the loop N slices long.
 */
export class SliceTurns {
  private tail: Promise<void> = Promise.resolve();

  /** Resolves, after the event loop has turned, with the function that hands the turn on. */
  async next(): Promise<() => void> {
    const before = this.tail;
    let handOn!: () => void;
    this.tail = new Promise((resolve) => (handOn = resolve));
    await before;
    await nextTurn();
    return handOn;
  }
}

const scans = new SliceTurns();

/**
 * Long computations in the management API (the filter lab parses up to a thousand stored
 * payloads of up to 256 KB) run on the thread that answers senders: they call `turn()` between
 * items, which lets the event loop turn once the slice's time is spent and waits for the other
 * scans' slices, and `done()` once they end (or fail), which hands the turn on.
 */
export class TimeSlicer {
  private since = performance.now();
  private handOn: (() => void) | null = null;

  constructor(
    private readonly budgetMs = SCAN_SLICE_MS,
    private readonly turns: SliceTurns = scans,
  ) {}

  async turn(): Promise<void> {
    if (performance.now() - this.since < this.budgetMs) return;
    this.done();
    this.handOn = await this.turns.next();
    this.since = performance.now();
  }

  done(): void {
    this.handOn?.();
    this.handOn = null;
  }
}
