import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  bodyOfSize,
  DELIVERY_ID,
  FIXTURES,
  MAX_BODY_BYTES,
  randomText,
  schemeOf,
  signedHeaders,
  verify,
  type Headers,
  type SchemeFixture,
} from './fixtures.js';
import type { Verification } from '../../../src/main/ingress/schemes/index.js';

function reasonOf(verdict: Verification): string {
  if (verdict.ok) throw new Error('expected the request to be rejected');
  return verdict.reason;
}

function without(headers: Headers, name: string): Headers {
  return Object.fromEntries(Object.entries(headers).filter(([key]) => key !== name));
}

function mismatchReason(f: SchemeFixture): string {
  return f.name === 'gitlab' ? 'token mismatch' : 'signature mismatch';
}

const TIMESTAMP_SIGNED = new Set(['stripe', 'standard-webhooks', 'slack', 'paddle', 'linear']);

describe.each(FIXTURES)('$name', (f) => {
  const body = f.body('hello');

  it('accepts a delivery signed as the provider signs it, with its delivery ID', () => {
    const verdict = verify(f, signedHeaders(f, body), body);
    expect(verdict).toEqual({
      ok: true,
      deliveryId: f.deliveryHeader === null ? null : DELIVERY_ID,
      // Schemes that sign a timestamp name the signature, so a replay of it is a Duplicate.
      ...(TIMESTAMP_SIGNED.has(f.name) ? { replayKey: expect.any(String) as string } : {}),
    });
  });

  it('rejects a delivery signed with another secret', () => {
    const headers = signedHeaders(f, body, { secret: f.otherSecret });
    expect(reasonOf(verify(f, headers, body))).toBe(mismatchReason(f));
  });

  it.each(f.requiredHeaders)('rejects a delivery without its %s header', (name) => {
    const reason = reasonOf(verify(f, without(signedHeaders(f, body), name), body));
    expect(reason.toLowerCase()).toBe(`missing ${name} header`);
  });

  it.each(f.requiredHeaders)('rejects an empty %s header', (name) => {
    const headers = { ...signedHeaders(f, body), [name]: [''] };
    expect(reasonOf(verify(f, headers, body)).toLowerCase()).toBe(`empty ${name} header`);
  });

  it('rejects a repeated signature header, even when both copies are valid', () => {
    const headers = signedHeaders(f, body);
    const value = headers[f.signatureHeader]?.[0] ?? '';
    headers[f.signatureHeader] = [value, value];
    expect(reasonOf(verify(f, headers, body)).toLowerCase()).toBe(
      `repeated ${f.signatureHeader} header`,
    );
  });

  it.each(['garbage', 'sha256=', 'v1,', 't=1,v1=', ',;= ', '\u0000'])(
    'rejects a malformed signature header %j',
    (value) => {
      const headers = { ...signedHeaders(f, body), [f.signatureHeader]: [value] };
      expect(verify(f, headers, body).ok).toBe(false);
    },
  );

  it('refuses to verify with an empty secret', () => {
    const headers = signedHeaders(f, body);
    expect(reasonOf(verify(f, headers, body, { secret: '' }))).toBe('no signing secret configured');
  });

  it('never puts the secret or the expected signature in a reason', () => {
    const tampered = f.body('hellO');
    const cases: [Headers, Buffer][] = [
      [signedHeaders(f, body, { secret: f.otherSecret }), body],
      [signedHeaders(f, body), tampered],
      [{ ...signedHeaders(f, body), [f.signatureHeader]: ['garbage'] }, body],
    ];
    for (const [headers, requestBody] of cases) {
      const verdict = verify(f, headers, requestBody);
      if (verdict.ok) continue; // GitLab's token does not cover the body
      const expected = Object.values(signedHeaders(f, requestBody)).flat();
      for (const leaked of [f.secret, ...expected]) {
        expect(verdict.reason).not.toContain(leaked);
      }
    }
  });

  it('verifies what it signs, for random bodies with non-ASCII text', () => {
    for (let round = 0; round < 25; round += 1) {
      const random = f.body(randomText(round * 7));
      expect(verify(f, signedHeaders(f, random), random).ok).toBe(true);
    }
  });

  it('verifies a body of exactly the 262,144-byte limit', () => {
    const large = bodyOfSize(f, MAX_BODY_BYTES);
    expect(verify(f, signedHeaders(f, large), large).ok).toBe(true);
    const tampered = Buffer.from(large);
    tampered[MAX_BODY_BYTES - 2] = 0x41;
    expect(verify(f, signedHeaders(f, large), tampered).ok).toBe(!f.coversBody);
  });

  it('names its delivery header in lower case, as headersDistinct keys are', () => {
    expect(schemeOf(f).deliveryIdHeader).toBe(f.deliveryHeader);
  });
});

// Cases that apply to some schemes only run over exactly those schemes (nothing is skipped).
describe.each(FIXTURES.filter((f) => f.coversBody))('$name (signature covers the body)', (f) => {
  const body = f.body('hello');

  it('rejects a body with one byte changed', () => {
    const headers = signedHeaders(f, body);
    for (const index of [0, Math.floor(body.length / 2), body.length - 1]) {
      const tampered = Buffer.from(body);
      tampered[index] = (tampered[index] ?? 0) ^ 0x01;
      expect(reasonOf(verify(f, headers, tampered))).toBe('signature mismatch');
    }
  });
});

describe.each(FIXTURES.filter((f) => !f.coversBody))(
  '$name (token does not cover the body)',
  (f) => {
    it('accepts a changed body with the right token, as the provider documents', () => {
      const body = f.body('hello');
      const tampered = f.body('hellO');
      expect(verify(f, signedHeaders(f, body), tampered).ok).toBe(true);
    });
  },
);

describe.each(FIXTURES.filter((f) => f.deliveryHeader !== null))(
  '$name (has a delivery header)',
  (f) => {
    const body = f.body('hello');

    it('rejects a repeated delivery header', () => {
      const name = f.deliveryHeader ?? '';
      const headers = { ...signedHeaders(f, body), [name]: [DELIVERY_ID, 'other-id'] };
      expect(reasonOf(verify(f, headers, body)).toLowerCase()).toBe(`repeated ${name} header`);
    });
  },
);

// Linear's body must be a JSON object carrying webhookTimestamp, so arbitrary bytes cannot verify.
describe.each(FIXTURES.filter((f) => f.name !== 'linear'))('$name (any bytes)', (f) => {
  it('verifies what it signs for random bytes', () => {
    for (let round = 0; round < 25; round += 1) {
      const random = randomBytes(round * 13);
      expect(verify(f, signedHeaders(f, random), random).ok).toBe(true);
    }
  });
});
