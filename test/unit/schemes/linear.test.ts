import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { linear } from '../../../src/main/ingress/schemes/linear.js';
import { fixture, NOW_MS, received, verify } from './fixtures.js';

const f = fixture('linear');

/** Restates Linear's docs: hex HMAC-SHA256 of the raw body, keyed with the signing secret. */
function linearHeaders(body: Buffer, secret = f.secret) {
  return received({
    'Linear-Signature': createHmac('sha256', secret).update(body).digest('hex'),
    'Linear-Delivery': '234d1a4e-b617-4388-90fe-adc3633d6b72',
  });
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const atOffset = (offsetMs: number) =>
  json({ action: 'update', webhookTimestamp: NOW_MS + offsetMs });

describe('linear', () => {
  it('accepts a fresh delivery, with Linear-Delivery as the delivery ID', () => {
    const body = atOffset(0);
    expect(verify(f, linearHeaders(body), body)).toEqual({
      ok: true,
      replayKey: expect.any(String) as string,
      deliveryId: '234d1a4e-b617-4388-90fe-adc3633d6b72',
    });
  });

  it('signs the body as Linear does', () => {
    const body = atOffset(0);
    expect(linear.sign({ body, secret: f.secret, timestamp: 0, id: 'l-1', options: null })).toEqual(
      {
        'Linear-Delivery': 'l-1',
        'Linear-Signature': createHmac('sha256', f.secret).update(body).digest('hex'),
      },
    );
  });

  it('accepts webhookTimestamp just inside 60 s either way', () => {
    for (const offset of [-60_000, 60_000]) {
      const body = atOffset(offset);
      expect(verify(f, linearHeaders(body), body).ok).toBe(true);
    }
  });

  it('rejects a webhookTimestamp more than 60 s old or ahead', () => {
    for (const offset of [-60_001, 60_001, -86_400_000]) {
      const body = atOffset(offset);
      expect(verify(f, linearHeaders(body), body)).toEqual({
        ok: false,
        reason: 'webhookTimestamp outside the 60 s tolerance',
      });
    }
  });

  it('checks the signature before reading the body: a forged non-JSON body is a mismatch', () => {
    const body = Buffer.from('not json');
    expect(verify(f, linearHeaders(body, f.otherSecret), body)).toEqual({
      ok: false,
      reason: 'signature mismatch',
    });
  });

  it('rejects a validly signed body that is not JSON (or not UTF-8)', () => {
    for (const body of [Buffer.from('{"webhookTimestamp":'), Buffer.from([0x7b, 0xff, 0x7d])]) {
      expect(verify(f, linearHeaders(body), body)).toEqual({
        ok: false,
        reason: 'body is not JSON, so webhookTimestamp cannot be checked',
      });
    }
  });

  it.each([
    ['no webhookTimestamp', { action: 'create' }],
    ['a string webhookTimestamp', { webhookTimestamp: String(NOW_MS) }],
    ['a fractional webhookTimestamp', { webhookTimestamp: NOW_MS + 0.5 }],
    ['a negative webhookTimestamp', { webhookTimestamp: -1 }],
    ['an array body', [NOW_MS]],
    ['a number body', NOW_MS],
    ['null', null],
  ])('rejects a validly signed body with %s', (_label, payload) => {
    const body = json(payload);
    expect(verify(f, linearHeaders(body), body)).toEqual({
      ok: false,
      reason: 'body has no webhookTimestamp in milliseconds',
    });
  });

  it('rejects a webhookTimestamp in seconds, which is decades away in milliseconds', () => {
    const body = json({ webhookTimestamp: Math.floor(NOW_MS / 1000) });
    expect(verify(f, linearHeaders(body), body)).toEqual({
      ok: false,
      reason: 'webhookTimestamp outside the 60 s tolerance',
    });
  });

  it('reads webhookTimestamp past one leading BOM', () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), atOffset(0)]);
    expect(verify(f, linearHeaders(body), body).ok).toBe(true);
  });
});
