import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { SignatureSchemeName } from '../../../../src/shared/signature-schemes.js';

/**
 * Each provider's sender, written from the provider's documentation with node:crypto alone, so
 * the relay is checked against the providers' rules rather than against its own signing code.
 */
export interface ProviderSender {
  scheme: SignatureSchemeName;
  /** The provider's signing secret, in the shape the provider issues it. */
  secret: string;
  /** Another well-formed secret: a sender configured with the wrong one. */
  otherSecret: string;
  signatureOptions?: { header: string; encoding: 'hex' | 'base64'; prefix: string };
  /** The body the provider sends at `seconds` (Linear's timestamp is inside it). */
  body(text: string, seconds: number): Buffer;
  /** The headers the provider sends for `body`, signed with `secret` at `seconds`. */
  sign(body: Buffer, secret: string, seconds: number, id: string): Record<string, string>;
  /** The header holding the signature (GitLab: the token). */
  signatureHeader: string;
  /** Every header verification needs; any one missing is a 401. */
  requiredHeaders: readonly string[];
  /** Wrong-shaped values of a header, and what the log entry's reason says about each. */
  malformed: readonly { header: string; value: string; reason: RegExp }[];
  /** The provider's delivery header (identity step 2), or null if it has none. */
  deliveryHeader: string | null;
  /** How far the signed timestamp may be from now, either way; null if nothing is timestamped. */
  toleranceSeconds: number | null;
  /** GitLab's token does not cover the body. */
  coversBody: boolean;
}

const hmac = (key: string | Buffer, ...parts: (string | Buffer)[]) => {
  const mac = createHmac('sha256', key);
  for (const part of parts) mac.update(part);
  return mac;
};
const hex = (key: string | Buffer, ...parts: (string | Buffer)[]) =>
  hmac(key, ...parts).digest('hex');
const base64 = (key: string | Buffer, ...parts: (string | Buffer)[]) =>
  hmac(key, ...parts).digest('base64');

const token = (bytes = 24) => randomBytes(bytes).toString('base64url');
const json = (text: string) => Buffer.from(JSON.stringify({ event: 'test', text }));
const whsec = () => `whsec_${randomBytes(24).toString('base64')}`;
const NOT_TIMESTAMP = /not a Unix timestamp in seconds/;

export const SENDERS: readonly ProviderSender[] = [
  {
    scheme: 'standard-webhooks',
    secret: whsec(),
    otherSecret: whsec(),
    body: json,
    sign: (body, secret, seconds, id) => {
      const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
      return {
        'webhook-id': id,
        'webhook-timestamp': String(seconds),
        'webhook-signature': `v1,${base64(key, `${id}.${seconds}.`, body)}`,
      };
    },
    signatureHeader: 'webhook-signature',
    requiredHeaders: ['webhook-id', 'webhook-timestamp', 'webhook-signature'],
    malformed: [
      { header: 'webhook-signature', value: 'v2,c2lnbmF0dXJl', reason: /no v1 signature/ },
      { header: 'webhook-timestamp', value: '1e9', reason: NOT_TIMESTAMP },
    ],
    deliveryHeader: 'webhook-id',
    toleranceSeconds: 300,
    coversBody: true,
  },
  {
    scheme: 'stripe',
    secret: `whsec_${token()}`,
    otherSecret: `whsec_${token()}`,
    body: json,
    sign: (body, secret, seconds) => ({
      'Stripe-Signature': `t=${seconds},v1=${hex(secret, `${seconds}.`, body)}`,
    }),
    signatureHeader: 'Stripe-Signature',
    requiredHeaders: ['Stripe-Signature'],
    malformed: [
      { header: 'Stripe-Signature', value: 'signature', reason: /malformed Stripe-Signature/ },
      { header: 'Stripe-Signature', value: 't=12.5,v1=00', reason: NOT_TIMESTAMP },
    ],
    deliveryHeader: null,
    toleranceSeconds: 300,
    coversBody: true,
  },
  {
    scheme: 'github',
    secret: token(),
    otherSecret: token(),
    body: json,
    sign: (body, secret, _seconds, id) => ({
      'X-GitHub-Event': 'push',
      'X-GitHub-Delivery': id,
      'X-Hub-Signature-256': `sha256=${hex(secret, body)}`,
    }),
    signatureHeader: 'X-Hub-Signature-256',
    requiredHeaders: ['X-Hub-Signature-256'],
    malformed: [
      { header: 'X-Hub-Signature-256', value: 'sha1=0123abcd', reason: /malformed X-Hub-/ },
    ],
    deliveryHeader: 'X-GitHub-Delivery',
    toleranceSeconds: null,
    coversBody: true,
  },
  {
    scheme: 'slack',
    secret: randomBytes(16).toString('hex'),
    otherSecret: randomBytes(16).toString('hex'),
    body: json,
    sign: (body, secret, seconds) => ({
      'X-Slack-Request-Timestamp': String(seconds),
      'X-Slack-Signature': `v0=${hex(secret, `v0:${seconds}:`, body)}`,
    }),
    signatureHeader: 'X-Slack-Signature',
    requiredHeaders: ['X-Slack-Request-Timestamp', 'X-Slack-Signature'],
    malformed: [
      { header: 'X-Slack-Signature', value: 'v1=0123abcd', reason: /malformed X-Slack-Signature/ },
      { header: 'X-Slack-Request-Timestamp', value: '-60', reason: NOT_TIMESTAMP },
    ],
    deliveryHeader: null,
    toleranceSeconds: 300,
    coversBody: true,
  },
  {
    scheme: 'shopify',
    secret: `shpss_${randomBytes(16).toString('hex')}`,
    otherSecret: `shpss_${randomBytes(16).toString('hex')}`,
    body: json,
    sign: (body, secret, _seconds, id) => ({
      'X-Shopify-Topic': 'orders/create',
      'X-Shopify-Webhook-Id': id,
      'X-Shopify-Hmac-Sha256': base64(secret, body),
    }),
    signatureHeader: 'X-Shopify-Hmac-Sha256',
    requiredHeaders: ['X-Shopify-Hmac-Sha256'],
    malformed: [{ header: 'X-Shopify-Hmac-Sha256', value: 'not base64!', reason: /mismatch/ }],
    deliveryHeader: 'X-Shopify-Webhook-Id',
    toleranceSeconds: null,
    coversBody: true,
  },
  {
    scheme: 'linear',
    secret: `lin_wh_${token()}`,
    otherSecret: `lin_wh_${token()}`,
    body: (text, seconds) =>
      Buffer.from(JSON.stringify({ action: 'create', text, webhookTimestamp: seconds * 1000 })),
    sign: (body, secret, _seconds, id) => ({
      'Linear-Event': 'Issue',
      'Linear-Delivery': id,
      'Linear-Signature': hex(secret, body),
    }),
    signatureHeader: 'Linear-Signature',
    requiredHeaders: ['Linear-Signature'],
    malformed: [{ header: 'Linear-Signature', value: 'sha256=0123abcd', reason: /mismatch/ }],
    deliveryHeader: 'Linear-Delivery',
    toleranceSeconds: 60,
    coversBody: true,
  },
  {
    scheme: 'gitlab',
    secret: token(),
    otherSecret: token(),
    body: json,
    // GitLab gives every attempt a new X-Gitlab-Event-UUID; a resend keeps Idempotency-Key.
    sign: (_body, secret, _seconds, id) => ({
      'X-Gitlab-Event': 'Push Hook',
      'X-Gitlab-Event-UUID': randomUUID(),
      'Idempotency-Key': id,
      'X-Gitlab-Token': secret,
    }),
    signatureHeader: 'X-Gitlab-Token',
    requiredHeaders: ['X-Gitlab-Token'],
    malformed: [{ header: 'X-Gitlab-Token', value: '', reason: /empty X-Gitlab-Token/ }],
    deliveryHeader: 'Idempotency-Key',
    toleranceSeconds: null,
    coversBody: false,
  },
  {
    scheme: 'paddle',
    secret: `pdl_ntfset_${token()}`,
    otherSecret: `pdl_ntfset_${token()}`,
    body: json,
    sign: (body, secret, seconds) => ({
      'Paddle-Signature': `ts=${seconds};h1=${hex(secret, `${seconds}:`, body)}`,
    }),
    signatureHeader: 'Paddle-Signature',
    requiredHeaders: ['Paddle-Signature'],
    malformed: [
      { header: 'Paddle-Signature', value: 'h1=0123abcd', reason: /has no ts=/ },
      { header: 'Paddle-Signature', value: 'ts=1;ts=2;h1=00', reason: /more than one ts=/ },
    ],
    deliveryHeader: null,
    toleranceSeconds: 5,
    coversBody: true,
  },
  {
    scheme: 'hmac-sha256',
    secret: token(),
    otherSecret: token(),
    signatureOptions: { header: 'X-Signature', encoding: 'base64', prefix: 'sha256=' },
    body: json,
    sign: (body, secret) => ({ 'X-Signature': `sha256=${base64(secret, body)}` }),
    signatureHeader: 'X-Signature',
    requiredHeaders: ['X-Signature'],
    malformed: [
      { header: 'X-Signature', value: 'c2lnbmF0dXJl', reason: /malformed x-signature header/i },
    ],
    deliveryHeader: null,
    toleranceSeconds: null,
    coversBody: true,
  },
];

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** A genuine delivery from the provider at `seconds` (now by default). */
export function genuineDelivery(
  sender: ProviderSender,
  options: { text?: string; seconds?: number; id?: string; secret?: string } = {},
): { body: Buffer; headers: Record<string, string>; id: string } {
  const seconds = options.seconds ?? nowSeconds();
  const id = options.id ?? randomUUID();
  const body = sender.body(options.text ?? randomUUID(), seconds);
  return { body, headers: sender.sign(body, options.secret ?? sender.secret, seconds, id), id };
}
