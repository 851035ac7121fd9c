import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hmacSha256 } from '../../../src/main/ingress/schemes/hmac-sha256.js';
import { SigningError } from '../../../src/main/ingress/schemes/index.js';
import type { GenericHmacOptions } from '../../../src/shared/signature-schemes.js';
import { fixture, received, verify } from './fixtures.js';

const f = fixture('hmac-sha256');
const body = Buffer.from('{"event":"build.finished","status":"ok"}');
const digest = (secret: string, encoding: 'hex' | 'base64') =>
  createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest(encoding);

describe('hmac-sha256 (generic)', () => {
  it('fails with a clear reason when the webhook has no signature settings', () => {
    const headers = received({ 'X-Signature': 'sha256=' + digest(f.secret, 'hex') });
    expect(verify(f, headers, body, { options: null })).toEqual({
      ok: false,
      reason: 'hmac-sha256 webhook has no signature settings (header, encoding, prefix)',
    });
    expect(() =>
      hmacSha256.sign({ body, secret: f.secret, timestamp: 0, id: 'x', options: null }),
    ).toThrow(SigningError);
  });

  it.each<[GenericHmacOptions, string]>([
    [
      { header: 'x-signature', encoding: 'hex', prefix: 'sha256=' },
      'sha256=' + digest(f.secret, 'hex'),
    ],
    [{ header: 'x-hook-sig', encoding: 'base64', prefix: '' }, digest(f.secret, 'base64')],
    [{ header: 'x-hook-sig', encoding: 'hex', prefix: '' }, digest(f.secret, 'hex')],
  ])('verifies with %j', (options, value) => {
    const headers = received({ [options.header]: value });
    expect(verify(f, headers, body, { options })).toEqual({ ok: true, deliveryId: null });
    expect(hmacSha256.sign({ body, secret: f.secret, timestamp: 0, id: 'x', options })).toEqual({
      [options.header]: value,
    });
  });

  it("keys with the secret's UTF-8 bytes", () => {
    const options: GenericHmacOptions = { header: 'x-signature', encoding: 'base64', prefix: '' };
    const headers = received({ 'X-Signature': digest('sécret ✓', 'base64') });
    expect(verify(f, headers, body, { options, secret: 'sécret ✓' }).ok).toBe(true);
  });

  it('rejects a value without the configured prefix', () => {
    const headers = received({ 'X-Signature': digest(f.secret, 'hex') });
    expect(verify(f, headers, body)).toEqual({
      ok: false,
      reason: 'malformed x-signature header (expected sha256=<signature>)',
    });
  });

  it('rejects the right digest in the other encoding', () => {
    const headers = received({ 'X-Signature': 'sha256=' + digest(f.secret, 'base64') });
    expect(verify(f, headers, body)).toEqual({ ok: false, reason: 'signature mismatch' });
  });

  it('looks up a header named like an Object property without tripping on the prototype', () => {
    const options: GenericHmacOptions = { header: 'constructor', encoding: 'hex', prefix: '' };
    expect(verify(f, {}, body, { options })).toEqual({
      ok: false,
      reason: 'missing constructor header',
    });
  });
});
