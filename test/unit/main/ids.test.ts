import { decodeTime, isValid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { newDeliveryId, newRunId } from '../../../src/main/ids.js';

// The IDs are ULIDs written by the relay itself (src/main/ids.ts); the `ulid` package reads them.
describe('delivery and run IDs', () => {
  it('are ULIDs that carry the time they were made at', () => {
    const at = Date.UTC(2026, 10, 28, 9, 0, 0, 123);
    const id = newDeliveryId(at);
    expect(id).toMatch(/^dlv_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(isValid(id.slice(4))).toBe(true);
    expect(decodeTime(id.slice(4))).toBe(at);
    expect(decodeTime(newRunId(at + 1).slice(4))).toBe(at + 1);
  });

  it('sort in the order they were made, within a millisecond and when the clock steps back', () => {
    const at = Date.UTC(2027, 0, 1);
    const made = [
      ...Array.from({ length: 50 }, () => newDeliveryId(at)),
      newDeliveryId(at - 5),
      newDeliveryId(at + 1),
    ];
    expect(new Set(made).size).toBe(made.length);
    expect([...made].sort()).toEqual(made);
    // A clock that stepped back keeps the last time: the order holds.
    expect(decodeTime(made[50]!.slice(4))).toBe(at);
  });

  it('refuses a time no ULID can hold', () => {
    expect(() => newDeliveryId(-1)).toThrow(/cannot make a ULID/);
    expect(() => newDeliveryId(2 ** 48)).toThrow(/cannot make a ULID/);
  });
});
