import { describe, expect, it } from 'vitest';
import { formatShare } from '../../../src/renderer/components/format.js';
import {
  NO_FILTERS,
  localInput,
  toQuery,
  withRange,
} from '../../../src/renderer/pages/webhooks/log-filters.js';
import { cadenceText } from '../../../src/renderer/pages/webhooks/words.js';
import { idFloor, idTime } from '../../../src/shared/delivery-ids.js';

describe('the rejected share on the chart', () => {
  it('reads 44 of 21,000 as a share you can see, never as 0', () => {
    expect(formatShare(44, 21_000)).toBe('0.21 %');
    expect(formatShare(1, 100_000)).toBe('< 0.01 %');
    expect(formatShare(0, 21_000)).toBe('0 %');
    expect(formatShare(3, 40)).toBe('7.5 %');
    expect(formatShare(40, 40)).toBe('100 %');
  });
});

describe("the log's filters as a query", () => {
  it('fixes a preset when it is chosen, so the list does not shift under the reader', () => {
    const now = Date.parse('2030-03-04T12:00:00Z');
    const query = toQuery('wh_x', { ...NO_FILTERS, ...withRange('hour', now) });
    expect(query.from).toBe(now - 3_600_000);
    expect(query.to).toBeNull();
  });

  it('reads a custom "to" as the whole minute it names, and ignores a search under 3 characters', () => {
    const to = new Date(2030, 2, 4, 12, 30).getTime();
    const query = toQuery('wh_x', {
      ...NO_FILTERS,
      range: 'custom',
      customFrom: '',
      customTo: localInput(to),
      q: 'ab',
    });
    expect(query.from).toBeNull();
    expect(query.to).toBe(to + 59_999);
    expect(query.q).toBe('');
  });
});

describe('delivery IDs and time', () => {
  it('starts a page just before a time, and reads the time back from an ID', () => {
    const at = Date.parse('2030-03-04T12:00:00.123Z');
    expect(idFloor(at)).toMatch(/^dlv_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(idTime(idFloor(at))).toBe(at);
    expect(idFloor(at) < idFloor(at + 1)).toBe(true);
  });
});

describe('the expected cadence in words', () => {
  it('uses the largest whole unit', () => {
    expect(cadenceText(360)).toBe('every 6 h');
    expect(cadenceText(90)).toBe('every 90 min');
    expect(cadenceText(2880)).toBe('every 2 days');
    expect(cadenceText(1440)).toBe('every 1 day');
  });
});
