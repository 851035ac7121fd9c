import { describe, expect, it } from 'vitest';
import { UNEXPECTED_FAILURE_REASON } from '../../../src/main/ingress/schemes/verification.js';
import type { GenericHmacOptions } from '../../../src/shared/signature-schemes.js';
import {
  FIXTURES,
  NOW_MS,
  NOW_S,
  schemeOf,
  signedHeaders,
  type Headers,
  type SchemeFixture,
} from './fixtures.js';

/** A small seeded PRNG (mulberry32) so a failure reproduces. */
function prng(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fragments that parsers split on or look for, plus hostile odds and ends. */
const FRAGMENTS = [
  ',',
  ';',
  '=',
  ' ',
  '  ',
  't=',
  'ts=',
  'v1=',
  'v1,',
  'v1a,',
  'h1=',
  'v0=',
  'sha256=',
  'whsec_',
  String(NOW_S),
  '17500000000',
  '-1',
  '0',
  'abc',
  'ZZ==',
  '0123456789abcdef',
  '%00',
  '\u0000',
  '\r\n',
  'é',
  '漢',
  '😀',
  '\ud800',
  '__proto__',
  'constructor',
  '{"webhookTimestamp":1}',
  '',
];

const HEADER_NAMES = [
  ...new Set(FIXTURES.flatMap((f) => [...f.requiredHeaders, f.deliveryHeader ?? 'x-other'])),
  'svix-id',
  'svix-timestamp',
  'svix-signature',
  '__proto__',
  'constructor',
  'x-random',
];

function fuzzCase(random: () => number, f: SchemeFixture) {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const text = (max: number) =>
    Array.from({ length: Math.floor(random() * max) }, () => pick(FRAGMENTS)).join('');
  const headers: Headers = {};
  for (const name of HEADER_NAMES) {
    if (random() < 0.6)
      headers[name] = Array.from({ length: Math.floor(random() * 3) }, () => text(8));
  }
  const options: GenericHmacOptions | null =
    random() < 0.2
      ? null
      : { header: pick(HEADER_NAMES), encoding: pick(['hex', 'base64'] as const), prefix: text(2) };
  return {
    headers,
    body: Buffer.from(text(12)),
    secret: pick([f.secret, f.otherSecret, 'whsec_' + text(3), text(4), '']),
    now: pick([NOW_MS, 0, -1, Number.NaN, Number.MAX_SAFE_INTEGER, Infinity]),
    options,
  };
}

function mutate(random: () => number, value: string): string {
  const at = Math.floor(random() * (value.length + 1));
  const fragment = FRAGMENTS[Math.floor(random() * FRAGMENTS.length)] ?? '';
  switch (Math.floor(random() * 3)) {
    case 0:
      return value.slice(0, at) + fragment + value.slice(at);
    case 1:
      return value.slice(0, at) + value.slice(at + 1);
    default:
      return value.slice(0, at) + fragment + value.slice(at + 1);
  }
}

describe.each(FIXTURES)('$name under random input', (f) => {
  it('never throws, passes no forged request, and explains every refusal', () => {
    const random = prng(0x5eed + f.name.length);
    for (let round = 0; round < 1000; round += 1) {
      const input = fuzzCase(random, f);
      const verdict = schemeOf(f).verify(input);
      if (verdict.ok) {
        // Only a GitLab token that happens to equal a short random secret may pass.
        expect([f.name, input.headers['x-gitlab-token']]).toEqual(['gitlab', [input.secret]]);
        continue;
      }
      expect(verdict.reason).not.toBe(UNEXPECTED_FAILURE_REASON);
      expect(verdict.reason.length).toBeGreaterThan(0);
      expect(verdict.reason.length).toBeLessThan(120);
      if (input.secret.length >= 8) expect(verdict.reason).not.toContain(input.secret);
    }
  });

  it('never throws on near-miss mutations of a valid delivery', () => {
    const random = prng(0xbad + f.name.length);
    const body = f.body('mutated');
    for (let round = 0; round < 1000; round += 1) {
      const headers = signedHeaders(f, body);
      const names = Object.keys(headers);
      const name = names[Math.floor(random() * names.length)] ?? '';
      headers[name] = (headers[name] ?? []).map((value) => mutate(random, value));
      const verdict = schemeOf(f).verify({
        headers,
        body,
        secret: f.secret,
        now: NOW_MS,
        options: f.options,
      });
      if (!verdict.ok) expect(verdict.reason).not.toBe(UNEXPECTED_FAILURE_REASON);
    }
  });
});
