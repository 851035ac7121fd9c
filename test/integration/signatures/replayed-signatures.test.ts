import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAutomation, listRuns, webhookTrigger } from '../../support/automations.js';
import { startTestRelay, type TestRelay } from '../../support/relay.js';
import { storeConfig, storeKinds } from '../../support/stores.js';
import { createSignatureWebhook, deleteAllWebhooks, entry, post } from './support/relay-calls.js';
import { SENDERS, type ProviderSender } from './support/senders.js';

const sender = (scheme: string): ProviderSender => SENDERS.find((s) => s.scheme === scheme)!;
const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/**
 * Issue 24, item 4: a captured request of a scheme that signs a timestamp, sent again inside its
 * tolerance, is a Duplicate of the first whatever unsigned identity header it now carries; the
 * automation runs once. The senders sign as each provider documents (support/senders.ts).
 */
describe.each(storeKinds)('a replayed signature (%s)', (storeKind) => {
  let relay: TestRelay;
  beforeAll(async () => {
    relay = await startTestRelay(storeConfig(storeKind));
  });
  afterEach(async () => {
    for (const a of (await relay.call('automations.list', {})).items) {
      await relay.call('automations.delete', { id: a.id });
    }
    await deleteAllWebhooks(relay);
  });
  afterAll(() => relay.stop());

  async function signedWebhook(scheme: string) {
    const provider = sender(scheme);
    const created = await createSignatureWebhook(relay, provider);
    const automation = await createAutomation(relay, {
      name: `${scheme}-replays`,
      triggers: [webhookTrigger([created.webhook.uid])],
    });
    const runsOf = async (): Promise<string[]> =>
      (await listRuns(relay, `?automation=${automation.id}&limit=100`)).items.map(
        (r) => r.deliveryId,
      );
    return { provider, ingressUrl: created.ingressUrl, runsOf };
  }

  function captured(provider: ProviderSender, text: string) {
    const seconds = nowSeconds();
    const body = provider.body(text, seconds);
    return { body, headers: provider.sign(body, provider.secret, seconds, `evt_${text}`) };
  }

  it.each(['stripe', 'slack'])(
    '%s: the same signature with a new X-Service-Delivery-Id is a Duplicate of the first, and nothing runs again',
    async (scheme) => {
      const { provider, ingressUrl, runsOf } = await signedWebhook(scheme);
      const request = captured(provider, 'charge-1');

      const first = await post(ingressUrl, request.body, {
        ...request.headers,
        'X-Service-Delivery-Id': 'svc-genuine-1',
      });
      const replayed = await post(ingressUrl, request.body, {
        ...request.headers,
        'X-Service-Delivery-Id': 'svc-attacker-2',
      });

      expect([first.status, replayed.status]).toEqual([202, 202]);
      expect(await entry(relay, first.body.delivery_id!)).toMatchObject({ label: 'Accepted' });
      expect(await entry(relay, replayed.body.delivery_id!)).toMatchObject({
        label: 'Duplicate',
        duplicateOf: first.body.delivery_id,
        identity: 'svc-attacker-2',
      });
      expect(await runsOf()).toEqual([first.body.delivery_id]);

      // The attacker's identity was not taken: a genuine delivery that carries it is Accepted.
      const genuine = captured(provider, 'charge-2');
      const later = await post(ingressUrl, genuine.body, {
        ...genuine.headers,
        'X-Service-Delivery-Id': 'svc-attacker-2',
      });
      expect(await entry(relay, later.body.delivery_id!)).toMatchObject({ label: 'Accepted' });
    },
  );

  it('stripe: re-cased hex or an added v1 makes no new signature', async () => {
    const { provider, ingressUrl, runsOf } = await signedWebhook('stripe');
    const request = captured(provider, 'charge-3');
    const signature = request.headers['Stripe-Signature']!;
    const first = await post(ingressUrl, request.body, request.headers);
    const variants = [
      signature.replace(/v1=([0-9a-f]+)/, (_, hex: string) => `v1=${hex.toUpperCase()}`),
      `${signature},v1=${'0'.repeat(64)}`,
    ];
    for (const [n, variant] of variants.entries()) {
      const sent = await post(ingressUrl, request.body, {
        'Stripe-Signature': variant,
        'X-Service-Delivery-Id': `svc-variant-${n}`,
      });
      expect(sent.status).toBe(202);
      expect(await entry(relay, sent.body.delivery_id!)).toMatchObject({
        label: 'Duplicate',
        duplicateOf: first.body.delivery_id,
      });
    }
    expect(await runsOf()).toHaveLength(1);
  });

  it.each(['paddle', 'linear'])(
    '%s: the same signature is a Duplicate whatever identity header comes with it',
    async (scheme) => {
      const { provider, ingressUrl, runsOf } = await signedWebhook(scheme);
      const request = captured(provider, 'order-1');
      const first = await post(ingressUrl, request.body, request.headers);
      const replayHeaders: Record<string, string> = {
        ...request.headers,
        'X-Service-Delivery-Id': 'svc-new',
      };
      if (provider.deliveryHeader) replayHeaders[provider.deliveryHeader] = 'a-new-delivery-id';
      const replayed = await post(ingressUrl, request.body, replayHeaders);
      expect(await entry(relay, replayed.body.delivery_id!)).toMatchObject({
        label: 'Duplicate',
        duplicateOf: first.body.delivery_id,
      });
      expect(await runsOf()).toEqual([first.body.delivery_id]);
    },
  );

  it('twenty replays at once, each with its own identity: one Accepted, one run', async () => {
    const { provider, ingressUrl, runsOf } = await signedWebhook('stripe');
    const request = captured(provider, 'charge-burst');
    const sent = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        post(ingressUrl, request.body, { ...request.headers, 'X-Service-Delivery-Id': `svc-${n}` }),
      ),
    );
    expect(sent.every((s) => s.status === 202)).toBe(true);
    const labels = await Promise.all(
      sent.map(async (s) => (await entry(relay, s.body.delivery_id!)).label),
    );
    expect(labels.filter((l) => l === 'Accepted')).toHaveLength(1);
    expect(labels.filter((l) => l === 'Duplicate')).toHaveLength(19);
    expect(await runsOf()).toHaveLength(1);
  });

  it('a genuinely new signed request (same body, a fresh signature) is still Accepted', async () => {
    const { provider, ingressUrl, runsOf } = await signedWebhook('slack');
    const body = provider.body('same-text', nowSeconds());
    const first = await post(ingressUrl, body, {
      ...provider.sign(body, provider.secret, nowSeconds() - 30, 'x'),
      'X-Service-Delivery-Id': 'slack-1',
    });
    const second = await post(ingressUrl, body, {
      ...provider.sign(body, provider.secret, nowSeconds(), 'x'),
      'X-Service-Delivery-Id': 'slack-2',
    });
    expect(await entry(relay, first.body.delivery_id!)).toMatchObject({ label: 'Accepted' });
    expect(await entry(relay, second.body.delivery_id!)).toMatchObject({ label: 'Accepted' });
    expect(await runsOf()).toHaveLength(2);
  });

  it('github (no signed timestamp): the seed identity order stays, a new delivery header is a new delivery', async () => {
    const { provider, ingressUrl } = await signedWebhook('github');
    const body = provider.body('push', nowSeconds());
    const first = await post(ingressUrl, body, provider.sign(body, provider.secret, 0, 'gh-1'));
    const second = await post(ingressUrl, body, provider.sign(body, provider.secret, 0, 'gh-2'));
    expect(await entry(relay, first.body.delivery_id!)).toMatchObject({ label: 'Accepted' });
    expect(await entry(relay, second.body.delivery_id!)).toMatchObject({ label: 'Accepted' });
  });
});
