import { describe, expect, it } from 'vitest';
import { fixture, NOW_MS, NOW_S, signedHeaders, verify, type Headers } from './fixtures.js';

/** Schemes whose signed timestamp is in a header, with their tolerance and where the timestamp sits. */
const TIMED = [
  {
    f: fixture('standard-webhooks'),
    toleranceSeconds: 300,
    withTimestamp: (headers: Headers, raw: string): Headers => ({
      ...headers,
      'webhook-timestamp': [raw],
    }),
  },
  {
    f: fixture('stripe'),
    toleranceSeconds: 300,
    withTimestamp: (headers: Headers, raw: string): Headers => ({
      ...headers,
      'stripe-signature': (headers['stripe-signature'] ?? []).map((v) =>
        v.replace(/^t=\d+/, `t=${raw}`),
      ),
    }),
  },
  {
    f: fixture('slack'),
    toleranceSeconds: 300,
    withTimestamp: (headers: Headers, raw: string): Headers => ({
      ...headers,
      'x-slack-request-timestamp': [raw],
    }),
  },
  {
    f: fixture('paddle'),
    toleranceSeconds: 5,
    withTimestamp: (headers: Headers, raw: string): Headers => ({
      ...headers,
      'paddle-signature': (headers['paddle-signature'] ?? []).map((v) =>
        v.replace(/^ts=\d+/, `ts=${raw}`),
      ),
    }),
  },
];

describe.each(TIMED)('$f.name timestamps', ({ f, toleranceSeconds, withTimestamp }) => {
  const body = f.body('timed');
  const outside = `timestamp outside the ${toleranceSeconds} s tolerance`;
  const at = (timestamp: number) => verify(f, signedHeaders(f, body, { timestamp }), body);

  it.each([
    'abc',
    '-1',
    '+1750000000',
    ' 1750000000',
    '1750000000 ',
    '1750000000.0',
    '1.75e9',
    '0x683fc480',
    '１７５００００００００',
    '17500000000',
    '99999999999999999999',
  ])('rejects the timestamp %j as not a Unix timestamp', (raw) => {
    const verdict = verify(f, withTimestamp(signedHeaders(f, body), raw), body);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.reason).toMatch(/not a Unix timestamp in seconds$/);
  });

  it(`rejects a signature more than ${toleranceSeconds} s old`, () => {
    expect(at(NOW_S - toleranceSeconds - 1)).toEqual({ ok: false, reason: outside });
    expect(at(NOW_S - 86_400)).toEqual({ ok: false, reason: outside });
  });

  it(`rejects a signature more than ${toleranceSeconds} s in the future`, () => {
    expect(at(NOW_S + toleranceSeconds + 1)).toEqual({ ok: false, reason: outside });
  });

  it('accepts a signature just inside the tolerance, either way', () => {
    expect(at(NOW_S - toleranceSeconds).ok).toBe(true);
    expect(at(NOW_S + toleranceSeconds).ok).toBe(true);
  });

  it('reports a forged stale request as a mismatch, not as a clock problem', () => {
    const headers = signedHeaders(f, body, {
      timestamp: NOW_S - 86_400,
      secret: f.otherSecret,
    });
    expect(verify(f, headers, body)).toEqual({ ok: false, reason: 'signature mismatch' });
  });

  it('rejects an old signature moved to a fresh timestamp (the timestamp is signed)', () => {
    const stale = signedHeaders(f, body, { timestamp: NOW_S - 3600 });
    const verdict = verify(f, withTimestamp(stale, String(NOW_S)), body);
    expect(verdict).toEqual({ ok: false, reason: 'signature mismatch' });
  });

  it('rejects everything when the clock is not a number', () => {
    expect(verify(f, signedHeaders(f, body), body, { now: Number.NaN }).ok).toBe(false);
    expect(verify(f, signedHeaders(f, body), body, { now: NOW_MS }).ok).toBe(true);
  });
});
