import { afterEach, describe, expect, it } from 'vitest';
import { LOOP_DELAY_ALARM_MS, LoopDelayWatch } from '../../../src/main/alarms/loop-delay.js';
import type { Logger } from '../../../src/main/log.js';

/** The event loop's watch (issue 28): windows are fed by hand, as its 10 s timer would. */
describe('the event loop alarm', () => {
  const lines: string[] = [];
  const log: Logger = {
    info: (line) => lines.push(line),
    warn: (line) => lines.push(line),
    error: (line) => lines.push(line),
  };
  let watch: LoopDelayWatch | null = null;
  afterEach(() => {
    watch?.stop();
    lines.length = 0;
  });

  const held = { p99Ms: LOOP_DELAY_ALARM_MS + 50, maxMs: 900 };
  const calm = { p99Ms: 3, maxMs: 20 };

  it('is raised once the loop has been held for three windows in a row, and ends after three calm ones', () => {
    watch = new LoopDelayWatch(log);
    watch.judge(held);
    watch.judge(held);
    watch.judge(calm);
    watch.judge(held);
    watch.judge(held);
    expect(watch.alarm).toBe(false);
    watch.judge(held);
    expect(watch.alarm).toBe(true);
    expect(lines).toEqual([
      "[alarms] The relay's event loop has been held for 30 s (99th percentile 150 ms, longest 900 ms): senders wait that long for their answer; providers give up after 3–10 s.",
    ]);
    watch.judge(held);
    watch.judge(calm);
    watch.judge(calm);
    expect(watch.alarm).toBe(true);
    watch.judge(calm);
    expect(watch.alarm).toBe(false);
    expect(lines.at(-1)).toBe(
      "[alarms] Back to normal: the relay's event loop answers in time again.",
    );
    expect(lines).toHaveLength(2);
  });
});
