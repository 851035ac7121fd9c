import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** How long a scan may hold the event loop (which answers senders) before it lets it turn. */
export const SCAN_SLICE_MS = 5;

/**
 * Long computations in the management API (the filter lab parses up to a thousand stored
 * payloads of up to 256 KB) run on the thread that answers senders: they call `turn()` between
 * items, which lets the event loop turn once the slice's time is spent.
 */
export class TimeSlicer {
  private since = performance.now();

  constructor(private readonly budgetMs = SCAN_SLICE_MS) {}

  async turn(): Promise<void> {
    if (performance.now() - this.since < this.budgetMs) return;
    await nextTurn();
    this.since = performance.now();
  }
}
