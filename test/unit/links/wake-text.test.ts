import { describe, expect, it } from 'vitest';
import { wakeText } from '../../../src/renderer/app/wake-text.js';

describe("the status line's wake", () => {
  it('says when, how long asleep, and how many deliveries were recovered', () => {
    const at = new Date(2026, 10, 27, 7, 2).toISOString();
    expect(wakeText({ at, sleptSeconds: 6 * 3600 + 10 * 60, recovered: 3 })).toBe(
      'woke at 07:02 after 6 h 10 min asleep; recovered 3 deliveries',
    );
    expect(wakeText({ at, sleptSeconds: 45, recovered: 1 })).toBe(
      'woke at 07:02 after 45 s asleep; recovered 1 delivery',
    );
  });
});
