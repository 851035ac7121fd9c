import { timingSafeEqual } from 'node:crypto';
import { Webhooks } from '@octokit/webhooks';
import { Webhook } from 'standardwebhooks';
import type { ProviderSender } from '../../signatures/support/senders.js';
import { header, type Received } from './handler.js';

/**
 * What a handler's own verification concludes about a request it received, using the
 * independent node:crypto senders of test/integration/signatures/support/senders.ts (never the
 * relay's signing code) and, where a provider ships one, the provider's own library.
 */
export interface Verdict {
  ok: boolean;
  why: string;
}

const equal = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** The signed timestamp (seconds) the request carries, per the provider's documented place. */
function signedSeconds(sender: ProviderSender, request: Received): number {
  const pick = (name: string, pattern?: RegExp): number => {
    const value = header(request, name) ?? '';
    const text = pattern ? (pattern.exec(value)?.[1] ?? '') : value;
    return Number(text);
  };
  switch (sender.scheme) {
    case 'standard-webhooks':
      return pick('webhook-timestamp');
    case 'stripe':
      return pick('Stripe-Signature', /(?:^|,)t=(\d+)/);
    case 'slack':
      return pick('X-Slack-Request-Timestamp');
    case 'paddle':
      return pick('Paddle-Signature', /(?:^|;)ts=(\d+)/);
    case 'linear': {
      const body = JSON.parse(request.body.toString('utf8')) as { webhookTimestamp?: number };
      return Math.floor((body.webhookTimestamp ?? 0) / 1000);
    }
    default:
      return 0;
  }
}

/** Verifies `request` as the provider's receiving code would, at `nowSeconds`. */
export async function verifyAsProvider(
  sender: ProviderSender,
  request: Received,
  nowSeconds: number,
): Promise<Verdict> {
  const received = header(request, sender.signatureHeader);
  if (received === null) return { ok: false, why: `no ${sender.signatureHeader}` };
  const seconds = signedSeconds(sender, request);
  const id = sender.deliveryHeader ? (header(request, sender.deliveryHeader) ?? '') : '';
  const expected = sender.sign(request.body, sender.secret, seconds, id)[sender.signatureHeader]!;
  if (!equal(received, expected)) return { ok: false, why: 'signature mismatch' };
  if (
    sender.toleranceSeconds !== null &&
    Math.abs(nowSeconds - seconds) > sender.toleranceSeconds
  ) {
    return { ok: false, why: `timestamp ${seconds} is ${nowSeconds - seconds} s old` };
  }
  // The providers' own libraries, where one is installed, must agree.
  if (sender.scheme === 'github') {
    const ok = await new Webhooks({ secret: sender.secret }).verify(
      request.body.toString('utf8'),
      received,
    );
    if (!ok) return { ok: false, why: '@octokit/webhooks refused it' };
  }
  if (sender.scheme === 'standard-webhooks') {
    try {
      new Webhook(sender.secret).verify(request.body, {
        'webhook-id': header(request, 'webhook-id') ?? '',
        'webhook-timestamp': header(request, 'webhook-timestamp') ?? '',
        'webhook-signature': received,
      });
    } catch (error) {
      return { ok: false, why: `standardwebhooks refused it: ${String(error)}` };
    }
  }
  return { ok: true, why: 'verified' };
}
