import { describe, expect, it } from 'vitest';
import { SlidingWindowLimiter } from '../../../src/main/ingress/sliding-window.js';

const MINUTE = 60_000;

describe('the in-memory sliding window (one relay on SQLite)', () => {
  it('lets 60 through in a minute, refuses the 61st until the oldest is a minute old', () => {
    const window = new SlidingWindowLimiter(60, MINUTE);
    const start = 1_000_000;
    for (let i = 0; i < 60; i++) expect(window.take('wh', start + i * 500)).toBe(0);
    // The oldest (at `start`) frees its slot at start + 60 s: 30.5 s after the last one.
    expect(window.take('wh', start + 29_500)).toBe(31);
    expect(window.take('wh', start + MINUTE - 1)).toBe(1);
    expect(window.take('wh', start + MINUTE)).toBe(0);
    // That took the freed slot; the next frees half a second later.
    expect(window.take('wh', start + MINUTE)).toBe(1);
    expect(window.take('wh', start + MINUTE + 500)).toBe(0);
  });

  it('counts each key on its own, and forgets a key whose events all left the window', () => {
    const window = new SlidingWindowLimiter(2, MINUTE);
    expect([window.take('a', 0), window.take('a', 1), window.take('a', 2)]).toEqual([0, 0, 60]);
    expect(window.take('b', 2)).toBe(0);
    window.sweep(MINUTE + 2);
    expect([window.take('a', MINUTE + 2), window.take('a', MINUTE + 3)]).toEqual([0, 0]);
  });

  it('stays exact at a high limit, through growth and wrap-around of its ring', () => {
    const limit = 50_000;
    const window = new SlidingWindowLimiter(limit, MINUTE);
    let refused = 0;
    // Three minutes at 1,000 a second: 60,000 offered in each minute, 50,000 taken.
    for (let ms = 0; ms < 3 * MINUTE; ms++) if (window.take('wh', ms) > 0) refused++;
    expect(3 * MINUTE - refused).toBe(3 * limit);
  });

  it('keeps at most maxKeys keys, dropping the oldest when none has expired', () => {
    const window = new SlidingWindowLimiter(1, MINUTE, 2);
    window.take('a', 0);
    window.take('b', 1);
    window.take('c', 2);
    // 'a' was dropped to make room: it may send again; 'c' still may not.
    expect(window.take('a', 3)).toBe(0);
    expect(window.take('c', 3)).toBe(60);
  });

  it('refuses a limit that is not a whole number of at least 1', () => {
    expect(() => new SlidingWindowLimiter(0, MINUTE)).toThrow(/at least 1, not 0/);
    expect(() => new SlidingWindowLimiter(1.5, MINUTE)).toThrow(/whole number/);
  });
});
