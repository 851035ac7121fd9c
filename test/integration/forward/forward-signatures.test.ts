import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MethodInput } from '../../../src/shared/contract/index.js';
import { startTestRelay, type TestRelay } from '../../support/relay.js';
import {
  createSignatureWebhook,
  deleteAllWebhooks,
  post,
} from '../signatures/support/relay-calls.js';
import { genuineDelivery, nowSeconds, SENDERS } from '../signatures/support/senders.js';
import { header, startHandler, type LocalHandler } from './support/handler.js';
import { verifyAsProvider } from './support/verify.js';

/** Ten minutes ago: older than every provider's tolerance, so only a fresh signature passes. */
const STALE_MS = 10 * 60_000;

/**
 * PRODUCT.md §15: a stored delivery of every scheme, forwarded to a handler on 127.0.0.1 that
 * checks the provider's signature with its own code, is accepted there. The deliveries were
 * received ten minutes before they are forwarded, so a re-used timestamp would be refused.
 */
describe('forwarding a stored delivery of every signature scheme', () => {
  let relay: TestRelay;
  let handler: LocalHandler;
  let offsetMs = 0;
  beforeAll(async () => {
    relay = await startTestRelay({ now: () => Date.now() + offsetMs });
    handler = await startHandler();
  });
  afterEach(() => deleteAllWebhooks(relay));
  afterAll(async () => {
    await handler.stop();
    await relay.stop();
  });

  /** A genuine delivery received ten minutes ago, signed by the provider's independent sender. */
  async function storedTenMinutesAgo(sender: (typeof SENDERS)[number]) {
    const hook = await createSignatureWebhook(relay, sender);
    offsetMs = -STALE_MS;
    try {
      const genuine = genuineDelivery(sender, { seconds: nowSeconds() - STALE_MS / 1000 });
      const sent = await post(hook.ingressUrl, genuine.body, genuine.headers);
      expect(sent.status, JSON.stringify(sent.body)).toBe(202);
      return { deliveryId: sent.body.delivery_id!, genuine };
    } finally {
      offsetMs = 0;
    }
  }

  const forward = (id: string, input: Omit<MethodInput<'deliveries.forward'>, 'id'>) =>
    relay.call('deliveries.forward', { id, ...input });

  it.each(SENDERS.map((s) => [s.scheme, s] as const))(
    '%s: the handler verifies it with its own code, with a fresh timestamp and the same delivery ID',
    async (_scheme, sender) => {
      const { deliveryId, genuine } = await storedTenMinutesAgo(sender);
      const before = handler.received.length;
      const response = await forward(deliveryId, { url: handler.url });
      expect(response.attempt).toMatchObject({ status: 200, signed: true, edited: false });

      const got = handler.received[before]!;
      expect(await verifyAsProvider(sender, got, nowSeconds())).toEqual({
        ok: true,
        why: 'verified',
      });
      if (sender.scheme === 'linear') {
        // Linear signs its timestamp inside the body: only that number changed.
        const sent = JSON.parse(got.body.toString('utf8')) as Record<string, unknown>;
        const original = JSON.parse(genuine.body.toString('utf8')) as Record<string, unknown>;
        expect({ ...sent, webhookTimestamp: 0 }).toEqual({ ...original, webhookTimestamp: 0 });
      } else {
        expect(got.body.equals(genuine.body)).toBe(true);
      }
      if (sender.deliveryHeader) {
        expect(header(got, sender.deliveryHeader)).toBe(genuine.id);
      }
      expect(header(got, 'X-Hookport-Delivery-Id')).toBe(deliveryId);
    },
  );

  it.each(SENDERS.map((s) => [s.scheme, s] as const))(
    '%s: an edited body goes out signed over the edited bytes',
    async (_scheme, sender) => {
      const { deliveryId } = await storedTenMinutesAgo(sender);
      const edited = '{\n  "edited": true,\n  "text": "changed by hand"\n}';
      const before = handler.received.length;
      const response = await forward(deliveryId, { url: handler.url, body: edited });
      expect(response.attempt).toMatchObject({ status: 200, edited: true, sentBody: edited });
      const got = handler.received[before]!;
      expect(await verifyAsProvider(sender, got, nowSeconds())).toMatchObject({ ok: true });
      if (sender.scheme === 'linear') {
        expect(JSON.parse(got.body.toString('utf8'))).toMatchObject({ edited: true });
      } else {
        expect(got.body.toString('utf8')).toBe(edited);
      }
    },
  );

  it('sign: false sends the stored headers without any signature, which the handler refuses', async () => {
    const github = SENDERS.find((s) => s.scheme === 'github')!;
    const { deliveryId, genuine } = await storedTenMinutesAgo(github);
    const before = handler.received.length;
    const response = await forward(deliveryId, { url: handler.url, sign: false });
    expect(response.attempt.signed).toBe(false);
    const got = handler.received[before]!;
    expect(header(got, 'X-Hub-Signature-256')).toBeNull();
    expect(header(got, 'X-GitHub-Delivery')).toBe(genuine.id);
    expect(header(got, 'X-GitHub-Event')).toBe('push');
    expect((await verifyAsProvider(github, got, nowSeconds())).ok).toBe(false);
  });

  it('keeps Svix header names when the sender used them', async () => {
    const sw = SENDERS.find((s) => s.scheme === 'standard-webhooks')!;
    const hook = await createSignatureWebhook(relay, sw);
    const genuine = genuineDelivery(sw);
    const svix = Object.fromEntries(
      Object.entries(genuine.headers).map(([n, v]) => [n.replace('webhook-', 'svix-'), v]),
    );
    const sent = await post(hook.ingressUrl, genuine.body, svix);
    expect(sent.status).toBe(202);
    const before = handler.received.length;
    await forward(sent.body.delivery_id!, { url: handler.url });
    const got = handler.received[before]!;
    expect(header(got, 'svix-id')).toBe(genuine.id);
    expect(header(got, 'webhook-signature')).toBeNull();
    const renamed = {
      ...got,
      headers: got.headers.map(
        ([n, v]) => [n.replace(/^svix-/i, 'webhook-'), v] as [string, string],
      ),
    };
    expect((await verifyAsProvider(sw, renamed, nowSeconds())).ok).toBe(true);
  });
});
