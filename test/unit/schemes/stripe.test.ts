import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { stripe } from '../../../src/main/ingress/schemes/stripe.js';
import { fixture, NOW_S, received, verify } from './fixtures.js';

const f = fixture('stripe');
const body = f.body('payment_intent.succeeded');

/** Restates Stripe's "verify manually" steps: HMAC-SHA256 of `${t}.${body}`, hex, keyed with the whsec_ string. */
function stripeDigest(secret: string | Buffer, timestamp: number, payload: Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(payload).digest('hex');
}

const header = (value: string) => received({ 'Stripe-Signature': value });
const valid = stripeDigest(f.secret, NOW_S, body);

describe('stripe', () => {
  it('accepts a header built as Stripe documents it, with no delivery ID', () => {
    expect(verify(f, header(`t=${NOW_S},v1=${valid}`), body)).toEqual({
      ok: true,
      replayKey: expect.any(String) as string,
      deliveryId: null,
    });
  });

  it("takes the event's id from the signed body as its delivery ID (the same on every retry)", () => {
    const event = (pending: number) =>
      Buffer.from(JSON.stringify({ id: 'evt_1PqRsT', object: 'event', pending_webhooks: pending }));
    for (const sent of [event(2), event(1)]) {
      const mac = stripeDigest(f.secret, NOW_S, sent);
      expect(verify(f, header(`t=${NOW_S},v1=${mac}`), sent)).toMatchObject({
        ok: true,
        deliveryId: 'evt_1PqRsT',
      });
    }
    const notAnEvent = Buffer.from(JSON.stringify({ id: 'cus_123' }));
    const mac = stripeDigest(f.secret, NOW_S, notAnEvent);
    expect(verify(f, header(`t=${NOW_S},v1=${mac}`), notAnEvent)).toMatchObject({
      deliveryId: null,
    });
  });

  it('signs in the same form: t=<seconds>,v1=<hex>', () => {
    const sent = stripe.sign({
      body,
      secret: f.secret,
      timestamp: NOW_S,
      id: 'evt_1',
      options: null,
    });
    expect(sent).toEqual({ 'Stripe-Signature': `t=${NOW_S},v1=${valid}` });
  });

  it('passes during the provider secret roll, when one of several v1 matches, and ignores v0', () => {
    const other = stripeDigest(f.otherSecret, NOW_S, body);
    const value = `t=${NOW_S},v1=${other},v1=${valid},v0=${'0'.repeat(64)}`;
    expect(verify(f, header(value), body).ok).toBe(true);
  });

  it('ignores a matching digest under v0', () => {
    expect(verify(f, header(`t=${NOW_S},v0=${valid}`), body)).toEqual({
      ok: false,
      reason: 'no v1 signature in Stripe-Signature header',
    });
  });

  it('keys with the whsec_ string as is, not base64-decoded', () => {
    const decodedKey = Buffer.from(f.secret.slice('whsec_'.length), 'base64');
    const wrong = stripeDigest(decodedKey, NOW_S, body);
    expect(verify(f, header(`t=${NOW_S},v1=${wrong}`), body)).toEqual({
      ok: false,
      reason: 'signature mismatch',
    });
  });

  it.each([
    [`v1=${valid}`, 'Stripe-Signature header has no t='],
    [`t=${NOW_S},t=${NOW_S},v1=${valid}`, 'Stripe-Signature header has more than one t='],
    [`t=${NOW_S},v1=${valid},junk`, 'malformed Stripe-Signature header'],
    [`t=${NOW_S},=${valid}`, 'malformed Stripe-Signature header'],
    [`t=${NOW_S}`, 'no v1 signature in Stripe-Signature header'],
  ])('rejects %j: %s', (value, reason) => {
    expect(verify(f, header(value), body)).toEqual({ ok: false, reason });
  });
});
