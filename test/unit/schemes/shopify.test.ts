import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { shopify } from '../../../src/main/ingress/schemes/shopify.js';
import { fixture, received, verify } from './fixtures.js';

const f = fixture('shopify');
const body = f.body('orders/create');

/** Restates Shopify's docs: base64 HMAC-SHA256 of the raw body, keyed with the client secret. */
const digest = (encoding: 'base64' | 'hex') =>
  createHmac('sha256', f.secret).update(body).digest(encoding);

describe('shopify', () => {
  it('accepts a base64 HMAC of the body, with X-Shopify-Webhook-Id as the delivery ID', () => {
    const headers = received({
      'X-Shopify-Hmac-Sha256': digest('base64'),
      'X-Shopify-Webhook-Id': 'b54557e4-bdd9-4b37-8a5f-bf7d70bcd043',
    });
    expect(verify(f, headers, body)).toEqual({
      ok: true,
      deliveryId: 'b54557e4-bdd9-4b37-8a5f-bf7d70bcd043',
    });
  });

  it('signs as Shopify sends it', () => {
    expect(
      shopify.sign({ body, secret: f.secret, timestamp: 0, id: 'w-1', options: null }),
    ).toEqual({
      'X-Shopify-Webhook-Id': 'w-1',
      'X-Shopify-Hmac-Sha256': digest('base64'),
    });
  });

  it('rejects the right digest in the wrong encoding (hex)', () => {
    const headers = received({ 'X-Shopify-Hmac-Sha256': digest('hex') });
    expect(verify(f, headers, body)).toEqual({ ok: false, reason: 'signature mismatch' });
  });
});
