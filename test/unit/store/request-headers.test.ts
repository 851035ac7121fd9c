import { describe, expect, it } from 'vitest';
import { flatHeaders, headersJson } from '../../../src/main/store/request-headers.js';

/** Every header list a store keeps is written as this JSON: the pairs a log entry reads back. */
describe('headersJson (the stored form of a flat header list)', () => {
  const pairs: Array<[string, string]> = [
    ['Host', '127.0.0.1:8080'],
    ['X-Repeated', 'a'],
    ['x-repeated', 'b'],
    ['X-Odd', 'quote " backslash \\ tab \t del \x7f latin1 \xe9\xff'],
    ['X-Control', '\x00\x01\x1f\n\r'],
    ['X-Surrogates', '\ud800 \udfff \u2028 \u2029 ☃'],
    ['X-Empty', ''],
  ];

  it('is JSON.stringify of its pairs, byte for byte', () => {
    expect(headersJson(flatHeaders(pairs))).toBe(JSON.stringify(pairs));
    expect(headersJson([])).toBe('[]');
    const many = Array.from({ length: 500 }, (_, i): [string, string] => [`X-${i}`, `v${i}`]);
    expect(headersJson(flatHeaders(many))).toBe(JSON.stringify(many));
  });

  it('drops a name without a value, as the pairs were built', () => {
    expect(headersJson(['A', '1', 'B'])).toBe('[["A","1"]]');
  });
});
