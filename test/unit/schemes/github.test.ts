import { describe, expect, it } from 'vitest';
import { github } from '../../../src/main/ingress/schemes/github.js';
import { fixture, received, verify } from './fixtures.js';

const f = fixture('github');

/**
 * Published vector: docs.github.com, "Validating webhook deliveries" → "Testing the webhook
 * payload validation" (secret, payload and expected X-Hub-Signature-256 as printed there).
 */
const VECTOR = {
  secret: "It's a Secret to Everybody",
  body: Buffer.from('Hello, World!'),
  signature: 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17',
};

describe('github', () => {
  it("verifies GitHub's documented example, with X-GitHub-Delivery as the delivery ID", () => {
    const headers = received({
      'X-Hub-Signature-256': VECTOR.signature,
      'X-GitHub-Delivery': '72d3162e-cc78-11e3-81ab-4c9367dc0958',
    });
    expect(verify(f, headers, VECTOR.body, { secret: VECTOR.secret })).toEqual({
      ok: true,
      deliveryId: '72d3162e-cc78-11e3-81ab-4c9367dc0958',
    });
  });

  it("signs GitHub's documented example exactly", () => {
    const headers = github.sign({
      body: VECTOR.body,
      secret: VECTOR.secret,
      timestamp: 0,
      id: 'd-1',
      options: null,
    });
    expect(headers).toEqual({
      'X-GitHub-Delivery': 'd-1',
      'X-Hub-Signature-256': VECTOR.signature,
    });
  });

  it('still accepts a delivery without X-GitHub-Delivery (the body hash becomes its identity)', () => {
    const headers = received({ 'X-Hub-Signature-256': VECTOR.signature });
    expect(verify(f, headers, VECTOR.body, { secret: VECTOR.secret })).toEqual({
      ok: true,
      deliveryId: null,
    });
  });

  it('compares hex case-insensitively', () => {
    const headers = received({
      'X-Hub-Signature-256': 'sha256=' + VECTOR.signature.slice(7).toUpperCase(),
    });
    expect(verify(f, headers, VECTOR.body, { secret: VECTOR.secret }).ok).toBe(true);
  });

  it('rejects the digest without its sha256= prefix', () => {
    const headers = received({ 'X-Hub-Signature-256': VECTOR.signature.slice(7) });
    expect(verify(f, headers, VECTOR.body, { secret: VECTOR.secret })).toEqual({
      ok: false,
      reason: 'malformed X-Hub-Signature-256 header (expected sha256=<signature>)',
    });
  });

  it('does not fall back to the SHA-1 X-Hub-Signature header', () => {
    const headers = received({
      'X-Hub-Signature': 'sha1=01dc10d0c83e72ed246219cdd91669667fe2ca59',
    });
    expect(verify(f, headers, VECTOR.body, { secret: VECTOR.secret })).toEqual({
      ok: false,
      reason: 'missing X-Hub-Signature-256 header',
    });
  });
});
