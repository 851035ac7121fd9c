import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { paddle } from '../../../src/main/ingress/schemes/paddle.js';
import { fixture, NOW_S, received, verify } from './fixtures.js';

const f = fixture('paddle');
const body = f.body('transaction.completed');

/** Restates Paddle's docs: hex HMAC-SHA256 of `${ts}:${body}`, keyed with the endpoint secret key. */
const h1 = (secret: string, ts = NOW_S) =>
  createHmac('sha256', secret).update(`${ts}:`).update(body).digest('hex');
const header = (value: string) => received({ 'Paddle-Signature': value });

describe('paddle', () => {
  it('accepts ts=…;h1=… as Paddle documents it, with no delivery ID', () => {
    expect(verify(f, header(`ts=${NOW_S};h1=${h1(f.secret)}`), body)).toEqual({
      ok: true,
      replayKey: expect.any(String) as string,
      deliveryId: null,
    });
  });

  it('signs in the same form', () => {
    expect(
      paddle.sign({ body, secret: f.secret, timestamp: NOW_S, id: 'evt', options: null }),
    ).toEqual({
      'Paddle-Signature': `ts=${NOW_S};h1=${h1(f.secret)}`,
    });
  });

  it('passes during a secret rotation, when one of several h1 matches', () => {
    const value = `ts=${NOW_S};h1=${h1(f.otherSecret)};h1=${h1(f.secret)}`;
    expect(verify(f, header(value), body).ok).toBe(true);
  });

  it("holds Paddle's documented five-second tolerance", () => {
    const at = (ts: number) => verify(f, header(`ts=${ts};h1=${h1(f.secret, ts)}`), body);
    expect(at(NOW_S - 5).ok).toBe(true);
    expect(at(NOW_S - 6)).toEqual({ ok: false, reason: 'timestamp outside the 5 s tolerance' });
    expect(at(NOW_S + 6)).toEqual({ ok: false, reason: 'timestamp outside the 5 s tolerance' });
  });

  it.each([
    [`h1=${h1(f.secret)}`, 'Paddle-Signature header has no ts='],
    [`ts=${NOW_S}`, 'no h1 signature in Paddle-Signature header'],
    [
      `ts=${NOW_S},h1=${h1(f.secret)}`,
      'ts= in Paddle-Signature header is not a Unix timestamp in seconds',
    ],
    [`ts=${NOW_S};;h1=${h1(f.secret)}`, 'malformed Paddle-Signature header'],
  ])('rejects %j: %s', (value, reason) => {
    expect(verify(f, header(value), body)).toEqual({ ok: false, reason });
  });
});
