import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from '../../support/relay.js';
import { createSignatureWebhook, deleteAllWebhooks, entry, post } from './support/relay-calls.js';
import { genuineDelivery, SENDERS } from './support/senders.js';

describe('a genuine provider delivery', () => {
  let relay: TestRelay;
  beforeAll(async () => {
    relay = await startTestRelay();
  });
  afterEach(() => deleteAllWebhooks(relay));
  afterAll(() => relay.stop());

  it.each(SENDERS.map((s) => [s.scheme, s] as const))(
    '%s: 202 Accepted, payload stored byte for byte',
    async (_name, sender) => {
      const { ingressUrl } = await createSignatureWebhook(relay, sender);
      const delivery = genuineDelivery(sender, { text: 'caf\u00e9 \u2603 \u{1f600}' });

      const sent = await post(ingressUrl, delivery.body, delivery.headers);

      expect(sent.status).toBe(202);
      const logged = await entry(relay, sent.body.delivery_id!);
      expect(logged.label).toBe('Accepted');
      expect(Buffer.from(logged.payload!, 'utf8').equals(delivery.body)).toBe(true);
    },
  );

  it('standard-webhooks: Svix sends the same scheme under svix-* header names', async () => {
    const sender = SENDERS.find((s) => s.scheme === 'standard-webhooks')!;
    const { ingressUrl } = await createSignatureWebhook(relay, sender);
    const { body, headers } = genuineDelivery(sender);
    const svix = Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name.replace('webhook-', 'svix-'), value]),
    );

    expect((await post(ingressUrl, body, svix)).status).toBe(202);
  });

  it('standard-webhooks: one valid signature among several passes', async () => {
    const sender = SENDERS.find((s) => s.scheme === 'standard-webhooks')!;
    const { ingressUrl } = await createSignatureWebhook(relay, sender);
    const { body, headers } = genuineDelivery(sender);
    const other = sender.sign(
      body,
      sender.otherSecret,
      Number(headers['webhook-timestamp']),
      headers['webhook-id']!,
    );
    headers['webhook-signature'] =
      `${other['webhook-signature']} v1a,ZmFrZQ== ${headers['webhook-signature']}`;

    expect((await post(ingressUrl, body, headers)).status).toBe(202);
  });

  it("stripe: during the provider's own secret roll, either v1 signature passes; v0 is ignored", async () => {
    const sender = SENDERS.find((s) => s.scheme === 'stripe')!;
    const { ingressUrl } = await createSignatureWebhook(relay, sender);
    const { body, headers } = genuineDelivery(sender);
    const genuine = headers['Stripe-Signature']!;
    const t = genuine.split(',')[0]!;
    const rolled = sender.sign(body, sender.otherSecret, Number(t.slice(2)), '')[
      'Stripe-Signature'
    ]!;
    headers['Stripe-Signature'] = `${rolled},v0=00ff,${genuine.split(',')[1]!}`;

    expect((await post(ingressUrl, body, headers)).status).toBe(202);
  });

  it('hmac-sha256: hex encoding with no prefix, as a webhook configures it', async () => {
    const base = SENDERS.find((s) => s.scheme === 'hmac-sha256')!;
    const { ingressUrl } = await createSignatureWebhook(relay, {
      ...base,
      signatureOptions: { header: 'X-Payload-Signature', encoding: 'hex', prefix: '' },
    });
    const body = Buffer.from('{"ok":true}');
    const signature = createHmac('sha256', base.secret).update(body).digest('hex');

    const sent = await post(ingressUrl, body, { 'X-Payload-Signature': signature.toUpperCase() });
    expect(sent.status, 'hex is compared case-insensitively').toBe(202);
  });
});
