import { describe, expect, it } from 'vitest';
import { decodeHeaderLines, encodeHeaderLines } from '../../../src/main/store/header-lines.js';

describe('stored header lines', () => {
  it('read back exactly: order, case, repeats, colons and spaces in values, empty values', () => {
    const headers: Array<[string, string]> = [
      ['Host', '127.0.0.1:8787'],
      ['X-Time', '12:30:00'],
      ['x-repeated', 'a'],
      ['X-REPEATED', ' padded: yes '],
      ['X-Empty', ''],
      ['Authorization', '[redacted]'],
      ['X-Unicode', 'caf\u00e9 \u2603'],
    ];
    expect(decodeHeaderLines(encodeHeaderLines(headers))).toEqual(headers);
    expect(decodeHeaderLines(encodeHeaderLines([]))).toEqual([]);
  });

  it('cannot be made to hold a forged header by a line break in a value', () => {
    const text = encodeHeaderLines([['X-A', 'one\nAuthorization: Bearer forged']]);
    expect(decodeHeaderLines(text)).toEqual([['X-A', 'one Authorization: Bearer forged']]);
  });
});
