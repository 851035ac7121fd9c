import { describe, expect, it } from 'vitest';
import * as totals from '../../../src/main/store/search-total-parts.js';

describe("a kept search total's parts", () => {
  const span = totals.spanFrom(100);

  it('keeps the oldest hours apart and the rest of the log as one part, whatever hour an entry has', () => {
    expect(
      totals.byParts(
        [
          [90, 1],
          [100, 2],
          [101, 3],
          [100 + totals.HOURS_APART, 4],
          [500, 5],
        ],
        span,
      ),
    ).toEqual([
      [100, 1],
      [100, 2],
      [101, 3],
      [100 + totals.HOURS_APART, 4],
      [100 + totals.HOURS_APART, 5],
    ]);
  });

  it('finds the parts that lost entries, and only those', () => {
    // Counted: 10 entries in hour 100 (4 hits), 10 in hour 101 (5 hits), 50 in the rest (20 hits).
    const parts = totals.partsOf(
      [
        [100, 4],
        [101, 5],
        [124, 20],
      ],
      new Map([
        [100, 10],
        [101, 10],
        [124, 50],
      ]),
    );
    expect(totals.hitsIn(parts)).toBe(29);
    // Now hour 100 is gone, hour 101 lost 3; 7 entries arrived in the rest, 2 of them queued.
    const now = totals.countedNow(
      [
        [101, 7],
        [124, 57],
      ],
      [[124, 5]],
      [[124, 2]],
    );
    expect(now).toEqual(
      new Map([
        [101, 7],
        [124, 50],
      ]),
    );
    expect(totals.changedParts(parts, now).sort()).toEqual([100, 101]);

    // Hour 101 counted again (3 hits left), hour 100 dropped, the 5 new entries' 2 hits added.
    const next = totals.withFresh(
      totals.withRecounted(
        parts,
        new Map([
          [100, 0],
          [101, 3],
        ]),
        now,
      ),
      [[124, 2]],
      [[124, 5]],
    );
    expect([...next]).toEqual([
      [101, { hits: 3, entries: 7 }],
      [124, { hits: 22, entries: 55 }],
    ]);
    expect(totals.hitsIn(next)).toBe(25);
    expect(
      totals.changedParts(
        next,
        totals.countedNow(
          [
            [101, 7],
            [124, 55],
          ],
          [],
          [],
        ),
      ),
    ).toEqual([]);
  });

  it('counts the next hours apart from the rest as the oldest go, a few at a time', () => {
    // The oldest two hours pruned: hours 102..123 apart, the rest from 124 on.
    const parts = totals.partsOf(
      [
        [102, 1],
        [124, 30],
      ],
      new Map([
        [102, 5],
        [123, 5],
        [124, 100],
      ]),
    );
    const hours = totals.hoursToSplit(parts, span);
    expect(hours).toEqual([124, 125]);
    const split = new Map([
      [124, { hits: 3, entries: 6 }],
      [125, { hits: 0, entries: 0 }],
    ]);
    const next = totals.withSplit(parts, span, split);
    expect(next.span).toEqual({ lowest: 100, rest: 126 });
    expect(next.parts.get(124)).toEqual({ hits: 3, entries: 6 });
    expect(next.parts.has(125)).toBe(false);
    expect(next.parts.get(126)).toEqual({ hits: 27, entries: 94 });
    expect(totals.hitsIn(next.parts)).toBe(totals.hitsIn(parts));
    // Nothing to split while a day of hours is apart, or from an empty rest.
    expect(
      totals.hoursToSplit(
        totals.partsOf(
          [[124, 1]],
          new Map([
            [100, 2],
            [124, 5],
          ]),
        ),
        span,
      ),
    ).toEqual([]);
    expect(totals.hoursToSplit(totals.partsOf([], new Map([[110, 2]])), span)).toEqual([]);
  });

  it("narrows a search to an hour's part, the lowest holding all before its end", () => {
    const h = (hour: number): number => hour * totals.PART_MS;
    expect(totals.partRange({ q: 'x' }, 101, span)).toEqual({
      q: 'x',
      from: h(101),
      to: h(102) - 1,
    });
    expect(totals.partRange({ q: 'x' }, 100, span)).toEqual({ q: 'x', to: h(101) - 1 });
    expect(totals.partRange({ q: 'x', from: h(101) + 5 }, 101, span)).toEqual({
      q: 'x',
      from: h(101) + 5,
      to: h(102) - 1,
    });
    expect(totals.partRange({ q: 'x', to: h(101) - 1 }, 101, span)).toBeNull();
  });
});
