import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { boundedHeaders } from '../../../src/main/ingress/steps/bounded-headers.js';
import { budgetKey } from '../../../src/main/ingress/steps/client-address.js';
import { declaredLength } from '../../../src/main/ingress/steps/declared-length.js';

/** Only what declaredLength reads of a request: its raw headers. */
const withLengths = (...values: string[]) =>
  ({ rawHeaders: values.flatMap((v) => ['Content-Length', v]) }) as unknown as IncomingMessage;

describe('declaredLength (issue 24: never read through a float)', () => {
  it.each([
    ['262144', { kind: 'within', bytes: 262_144 }],
    ['0000262144', { kind: 'within', bytes: 262_144 }],
    ['0', { kind: 'within', bytes: 0 }],
    ['262145', { kind: 'over', declared: '262145' }],
    ['10000000000000000000', { kind: 'over', declared: '10000000000000000000' }],
    ['9007199254740993', { kind: 'over', declared: '9007199254740993' }],
    ['00000000000000000000000000000000000010', { kind: 'within', bytes: 10 }],
    [`${'9'.repeat(40)}`, { kind: 'over', declared: `${'9'.repeat(24)}…` }],
  ])('%s → %o', (value, expected) => {
    expect(declaredLength(withLengths(value), 262_144)).toEqual(expected);
  });

  it.each([['+5'], ['-5'], ['1e3'], ['12 34'], ['']])('%s is no length', (value) => {
    expect(declaredLength(withLengths(value), 262_144)).toEqual({ kind: 'none' });
  });

  it('takes two Content-Length headers as no length (the parser refused them already)', () => {
    expect(declaredLength(withLengths('5', '5'), 262_144)).toEqual({ kind: 'none' });
  });
});

describe('budgetKey (an IPv6 /64 is one client)', () => {
  it.each([
    ['2001:db8:aa:1::5', '2001:db8:aa:1::/64'],
    ['2001:0db8:00aa:0001:ffff:ffff:ffff:ffff', '2001:db8:aa:1::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['2001:db8:aa:1:0:0:1.2.3.4', '2001:db8:aa:1::/64'],
    ['203.0.113.7', '203.0.113.7'],
    ['unknown', 'unknown'],
  ])('%s → %s', (address, key) => {
    expect(budgetKey(address)).toBe(key);
  });
});

describe('boundedHeaders (4 KB for an entry written before authentication)', () => {
  const request = (pairs: Array<[string, string]>) => ({
    method: 'POST',
    path: '/',
    headers: pairs.flat(),
  });

  it('keeps headers that fit as they are', () => {
    const small = request([['Host', 'example.test']]);
    expect(boundedHeaders(small)).toEqual({ request: small, leftOut: 0 });
  });

  it('cuts the header that crosses the bound and leaves out the rest, counting what was left out', () => {
    const { request: kept, leftOut } = boundedHeaders(
      request([
        ['A', 'a'.repeat(10)],
        ['B', 'b'.repeat(20)],
        ['C', 'c'.repeat(5)],
      ]),
      20,
    );
    expect(kept.headers).toEqual(['A', 'a'.repeat(10), 'B', `${'b'.repeat(7)}…`]);
    expect(leftOut).toBe(20 - 7 + 6);
  });
});
