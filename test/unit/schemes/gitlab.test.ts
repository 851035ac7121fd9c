import { describe, expect, it } from 'vitest';
import { gitlab } from '../../../src/main/ingress/schemes/gitlab.js';
import { SigningError } from '../../../src/main/ingress/schemes/index.js';
import { fixture, received, verify } from './fixtures.js';

const f = fixture('gitlab');
const body = f.body('push');

describe('gitlab', () => {
  it('accepts the secret token, with Idempotency-Key (kept across resends) as the delivery ID', () => {
    const headers = received({
      'X-Gitlab-Token': f.secret,
      'X-Gitlab-Event-UUID': '13792a34-cac6-4fda-95a8-c58e00a3954e',
      'Idempotency-Key': 'f6a1f1c2-4b5e-4e8e-9d7a-2b8c3a1d0e9f',
    });
    expect(verify(f, headers, body)).toEqual({
      ok: true,
      deliveryId: 'f6a1f1c2-4b5e-4e8e-9d7a-2b8c3a1d0e9f',
    });
  });

  it('rejects another token without echoing either token', () => {
    const headers = received({ 'X-Gitlab-Token': f.otherSecret });
    expect(verify(f, headers, body)).toEqual({ ok: false, reason: 'token mismatch' });
  });

  it('rejects a token that only starts like the secret', () => {
    const headers = received({ 'X-Gitlab-Token': f.secret.slice(0, -1) });
    expect(verify(f, headers, body).ok).toBe(false);
  });

  it('cannot detect a changed body: the token does not cover it (a GitLab limitation)', () => {
    const headers = received({ 'X-Gitlab-Token': f.secret });
    expect(verify(f, headers, f.body('something else')).ok).toBe(true);
  });

  it('sends the token, a fresh event UUID per attempt and the idempotency key, and refuses to sign with no secret', () => {
    const first = gitlab.sign({ body, secret: f.secret, timestamp: 0, id: 'g-1', options: null });
    const again = gitlab.sign({ body, secret: f.secret, timestamp: 0, id: 'g-1', options: null });
    expect(first).toEqual({
      'X-Gitlab-Token': f.secret,
      'X-Gitlab-Event-UUID': expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown,
      'Idempotency-Key': 'g-1',
    });
    expect(again['X-Gitlab-Event-UUID']).not.toBe(first['X-Gitlab-Event-UUID']);
    expect(() => gitlab.sign({ body, secret: '', timestamp: 0, id: 'g-1', options: null })).toThrow(
      SigningError,
    );
  });
});
