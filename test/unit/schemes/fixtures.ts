import { randomBytes } from 'node:crypto';
import type {
  GenericHmacOptions,
  SignatureSchemeName,
} from '../../../src/shared/signature-schemes.js';
import {
  getSignatureScheme,
  type SignatureScheme,
  type Verification,
} from '../../../src/main/ingress/schemes/index.js';

/** The injected clock: a fraction of a second past a whole second, as a real clock would be. */
export const NOW_MS = 1_750_000_000_123;
export const NOW_S = Math.floor(NOW_MS / 1000);
export const MAX_BODY_BYTES = 262_144;

/** Mutable headers in the shape of `req.headersDistinct`. */
export type Headers = Record<string, string[]>;

/** What a provider's headers look like once Node has received them. */
export function received(sent: Record<string, string>): Headers {
  return Object.fromEntries(
    Object.entries(sent).map(([name, value]) => [name.toLowerCase(), [value]]),
  );
}

export interface SchemeFixture {
  name: SignatureSchemeName;
  secret: string;
  /** A different, well-formed secret (a sender configured with the wrong one). */
  otherSecret: string;
  options: GenericHmacOptions | null;
  /** Lower-case name of the header holding the signature (or token). */
  signatureHeader: string;
  /** Lower-case names of every header verification needs. */
  requiredHeaders: readonly string[];
  deliveryHeader: string | null;
  /** Whether the credential covers the body (GitLab's token does not). */
  coversBody: boolean;
  /** A body the scheme accepts at `nowMs` carrying `text` (Linear needs webhookTimestamp inside). */
  body: (text: string, nowMs?: number) => Buffer;
}

const jsonBody = (text: string): Buffer => Buffer.from(JSON.stringify({ event: 'test', text }));

export const FIXTURES: readonly SchemeFixture[] = [
  {
    name: 'standard-webhooks',
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    otherSecret: 'whsec_' + Buffer.from('another-24-byte-secret!!').toString('base64'),
    options: null,
    signatureHeader: 'webhook-signature',
    requiredHeaders: ['webhook-id', 'webhook-timestamp', 'webhook-signature'],
    deliveryHeader: 'webhook-id',
    coversBody: true,
    body: jsonBody,
  },
  {
    name: 'stripe',
    secret: 'whsec_stripe0123456789abcdefABCDEF',
    otherSecret: 'whsec_stripeFEDCBAfedcba9876543210',
    options: null,
    signatureHeader: 'stripe-signature',
    requiredHeaders: ['stripe-signature'],
    deliveryHeader: null,
    coversBody: true,
    body: jsonBody,
  },
  {
    name: 'github',
    secret: "It's a Secret to Everybody",
    otherSecret: "It's a Secret to Somebody",
    options: null,
    signatureHeader: 'x-hub-signature-256',
    requiredHeaders: ['x-hub-signature-256'],
    deliveryHeader: 'x-github-delivery',
    coversBody: true,
    body: jsonBody,
  },
  {
    name: 'slack',
    secret: '8f742231b10e8888abcd99yyyzzz85a5',
    otherSecret: '8f742231b10e8888abcd99yyyzzz85a6',
    options: null,
    signatureHeader: 'x-slack-signature',
    requiredHeaders: ['x-slack-signature', 'x-slack-request-timestamp'],
    deliveryHeader: null,
    coversBody: true,
    body: jsonBody,
  },
  {
    name: 'shopify',
    secret: 'shpss_0123456789abcdef0123456789abcdef',
    otherSecret: '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',
    options: null,
    signatureHeader: 'x-shopify-hmac-sha256',
    requiredHeaders: ['x-shopify-hmac-sha256'],
    deliveryHeader: 'x-shopify-webhook-id',
    coversBody: true,
    body: jsonBody,
  },
  {
    name: 'linear',
    secret: 'lin_wh_0123456789abcdefghijklmnopqrstuv',
    otherSecret: 'lin_wh_vutsrqponmlkjihgfedcba9876543210',
    options: null,
    signatureHeader: 'linear-signature',
    requiredHeaders: ['linear-signature'],
    deliveryHeader: 'linear-delivery',
    coversBody: true,
    body: (text, nowMs = NOW_MS) =>
      Buffer.from(JSON.stringify({ action: 'create', text, webhookTimestamp: nowMs })),
  },
  {
    name: 'gitlab',
    secret: 'gitlab-token-0123456789abcdef',
    otherSecret: 'gitlab-token-fedcba9876543210',
    options: null,
    signatureHeader: 'x-gitlab-token',
    requiredHeaders: ['x-gitlab-token'],
    deliveryHeader: 'idempotency-key',
    coversBody: false,
    body: jsonBody,
  },
  {
    name: 'paddle',
    secret: 'pdl_ntfset_01gkpjp8bkm3tm53kdgkx6sms7_6h3qd3uFSi9YCD3OLYAShQI90XTI5vEI',
    otherSecret: 'pdl_ntfset_01gkpjp8bkm3tm53kdgkx6sms7_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    options: null,
    signatureHeader: 'paddle-signature',
    requiredHeaders: ['paddle-signature'],
    deliveryHeader: null,
    coversBody: true,
    body: jsonBody,
  },
  {
    name: 'hmac-sha256',
    secret: 'generic-secret-0123456789',
    otherSecret: 'generic-secret-9876543210',
    options: { header: 'x-signature', encoding: 'hex', prefix: 'sha256=' },
    signatureHeader: 'x-signature',
    requiredHeaders: ['x-signature'],
    deliveryHeader: null,
    coversBody: true,
    body: jsonBody,
  },
];

export function fixture(name: SignatureSchemeName): SchemeFixture {
  const found = FIXTURES.find((f) => f.name === name);
  if (found === undefined) throw new Error(`no fixture for ${name}`);
  return found;
}

export function schemeOf(f: SchemeFixture): SignatureScheme {
  return getSignatureScheme(f.name);
}

export const DELIVERY_ID = 'delivery-7f3c2a';

/** Headers exactly as the provider would send them for `body`, as Node receives them. */
export function signedHeaders(
  f: SchemeFixture,
  body: Buffer,
  { timestamp = NOW_S, secret = f.secret, id = DELIVERY_ID } = {},
): Headers {
  return received(schemeOf(f).sign({ body, secret, timestamp, id, options: f.options }));
}

export function verify(
  f: SchemeFixture,
  headers: Headers,
  body: Buffer,
  { secret = f.secret, now = NOW_MS, options = f.options } = {},
): Verification {
  return schemeOf(f).verify({ headers, body, secret, now, options });
}

/** A body of exactly `size` bytes the scheme accepts, with non-ASCII text in it. */
export function bodyOfSize(f: SchemeFixture, size: number): Buffer {
  const empty = f.body('');
  const padding = 'ü'.repeat(Math.floor((size - empty.length) / 2));
  const body = f.body(padding + 'x'.repeat(size - empty.length - padding.length * 2));
  if (body.length !== size) throw new Error(`built ${body.length} bytes, wanted ${size}`);
  return body;
}

/** Random text with ASCII, accents, CJK, emoji and control characters. */
export function randomText(length: number): string {
  const pool = [
    'a',
    'Z',
    '0',
    ' ',
    '"',
    '\\',
    '\n',
    '\u0000',
    'é',
    'ß',
    '漢',
    '字',
    '😀',
    '🚀',
    '\u202e',
  ];
  return Array.from(randomBytes(length), (byte) => pool[byte % pool.length] ?? '').join('');
}
