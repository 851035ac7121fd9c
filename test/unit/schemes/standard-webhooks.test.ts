import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SigningError } from '../../../src/main/ingress/schemes/index.js';
import { standardWebhooks } from '../../../src/main/ingress/schemes/standard-webhooks.js';
import {
  fixture,
  NOW_MS,
  NOW_S,
  received,
  signedHeaders,
  verify,
  type Headers,
} from './fixtures.js';

const f = fixture('standard-webhooks');
const DELIVERY = 'msg_decoded';

/**
 * Published vector: standard-webhooks/standard-webhooks, libraries/javascript/src/webhook.test.ts,
 * "sign function works" (the reference library's own test).
 */
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: Buffer.from('{"test": 2432232314}'),
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

const vectorHeaders = (): Headers => ({
  'webhook-id': [VECTOR.id],
  'webhook-timestamp': [String(VECTOR.timestamp)],
  'webhook-signature': [VECTOR.signature],
});

const atVectorTime = { now: VECTOR.timestamp * 1000 };

function toSvix(headers: Headers): Headers {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name.replace(/^webhook-/, 'svix-'), value]),
  );
}

describe('standard-webhooks', () => {
  it('signs the reference library vector exactly', () => {
    const headers = standardWebhooks.sign({
      body: VECTOR.body,
      secret: VECTOR.secret,
      timestamp: VECTOR.timestamp,
      id: VECTOR.id,
      options: null,
    });
    expect(headers).toEqual({
      'webhook-id': VECTOR.id,
      'webhook-timestamp': String(VECTOR.timestamp),
      'webhook-signature': VECTOR.signature,
    });
  });

  it('verifies the reference vector, with its message ID as the delivery ID', () => {
    expect(
      verify(f, vectorHeaders(), VECTOR.body, { secret: VECTOR.secret, ...atVectorTime }),
    ).toEqual({
      ok: true,
      replayKey: expect.any(String) as string,
      deliveryId: VECTOR.id,
    });
  });

  it('accepts the secret without its whsec_ prefix', () => {
    const secret = VECTOR.secret.slice('whsec_'.length);
    expect(verify(f, vectorHeaders(), VECTOR.body, { secret, ...atVectorTime }).ok).toBe(true);
  });

  it('accepts the svix-* header names, with svix-id as the delivery ID', () => {
    const verdict = verify(f, toSvix(vectorHeaders()), VECTOR.body, {
      secret: VECTOR.secret,
      ...atVectorTime,
    });
    expect(verdict).toEqual({
      ok: true,
      replayKey: expect.any(String) as string,
      deliveryId: VECTOR.id,
    });
  });

  it('reports a missing svix-timestamp by its own name', () => {
    const headers = toSvix(vectorHeaders());
    delete headers['svix-timestamp'];
    expect(verify(f, headers, VECTOR.body, { secret: VECTOR.secret, ...atVectorTime })).toEqual({
      ok: false,
      reason: 'missing svix-timestamp header',
    });
  });

  it('passes when any one of several space-separated signatures is valid', () => {
    const headers = vectorHeaders();
    headers['webhook-signature'] = [
      [
        'v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=',
        'v1a,hnO3f9T8Ytu9HwrXslvumlUpqtNVqkhqw/enGzPCXe5BdqzCInXqYXFymVJaA7AZdpXwVLPo3mNl8EM+m7TBAg==',
        '',
        VECTOR.signature,
        'v2,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=',
      ].join(' '),
    ];
    expect(verify(f, headers, VECTOR.body, { secret: VECTOR.secret, ...atVectorTime }).ok).toBe(
      true,
    );
  });

  it('ignores other versions: a valid digest under v1a, is not accepted', () => {
    const headers = vectorHeaders();
    headers['webhook-signature'] = [VECTOR.signature.replace('v1,', 'v1a,')];
    expect(verify(f, headers, VECTOR.body, { secret: VECTOR.secret, ...atVectorTime })).toEqual({
      ok: false,
      reason: 'no v1 signature in webhook-signature header',
    });
  });

  it('signs the message ID: another webhook-id with the same signature fails', () => {
    const headers = { ...vectorHeaders(), 'webhook-id': ['msg_other'] };
    expect(verify(f, headers, VECTOR.body, { secret: VECTOR.secret, ...atVectorTime })).toEqual({
      ok: false,
      reason: 'signature mismatch',
    });
  });

  it('keys the HMAC with the decoded secret, not its text', () => {
    const body = f.body('decoded');
    const wrongKey = createHmac('sha256', f.secret)
      .update(`${DELIVERY}.${NOW_S}.`)
      .update(body)
      .digest('base64');
    const headers = received({
      'webhook-id': DELIVERY,
      'webhook-timestamp': String(NOW_S),
      'webhook-signature': `v1,${wrongKey}`,
    });
    expect(verify(f, headers, body).ok).toBe(false);
  });

  it('rejects a secret that is not base64, on verify and on sign', () => {
    const body = f.body('x');
    const headers = signedHeaders(f, body);
    expect(verify(f, headers, body, { secret: 'whsec_not base64!' })).toEqual({
      ok: false,
      reason: 'secret is not whsec_ followed by base64',
    });
    expect(() =>
      standardWebhooks.sign({
        body,
        secret: 'whsec_%%%',
        timestamp: NOW_S,
        id: 'x',
        options: null,
      }),
    ).toThrow(SigningError);
  });

  it('uses the current time it is given', () => {
    const body = f.body('clock');
    expect(verify(f, signedHeaders(f, body), body, { now: NOW_MS }).ok).toBe(true);
  });
});
