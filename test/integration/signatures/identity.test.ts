import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from '../../support/relay.js';
import { createSignatureWebhook, deleteAllWebhooks, entry, post } from './support/relay-calls.js';
import { genuineDelivery, SENDERS } from './support/senders.js';

const github = SENDERS.find((s) => s.scheme === 'github')!;

describe('delivery identity for signature webhooks (step 2: the provider delivery header)', () => {
  let relay: TestRelay;
  beforeAll(async () => {
    relay = await startTestRelay();
  });
  afterEach(() => deleteAllWebhooks(relay));
  afterAll(() => relay.stop());

  it('github: a redelivered event (same X-GitHub-Delivery, same body) is a Duplicate', async () => {
    const { ingressUrl } = await createSignatureWebhook(relay, github);
    const event = genuineDelivery(github);

    const first = await post(ingressUrl, event.body, event.headers);
    const again = await post(ingressUrl, event.body, event.headers);

    expect([first.status, again.status]).toEqual([202, 202]);
    const original = await entry(relay, first.body.delivery_id!);
    expect(original).toMatchObject({
      label: 'Accepted',
      identity: event.id,
      identitySource: 'provider-header',
    });
    const duplicate = await entry(relay, again.body.delivery_id!);
    expect(duplicate).toMatchObject({ label: 'Duplicate', duplicateOf: original.id });
  });

  it('github: a new X-GitHub-Delivery with the same body is a new delivery', async () => {
    const { ingressUrl } = await createSignatureWebhook(relay, github);
    const first = genuineDelivery(github, { text: 'same' });
    const second = { ...first, headers: { ...first.headers, 'X-GitHub-Delivery': randomUUID() } };

    await post(ingressUrl, first.body, first.headers);
    const sent = await post(ingressUrl, second.body, second.headers);

    expect((await entry(relay, sent.body.delivery_id!)).label).toBe('Accepted');
  });

  it("the webhook's own delivery-ID header beats the provider's", async () => {
    const { ingressUrl } = await createSignatureWebhook(relay, github, {
      deliveryIdHeader: 'X-Event-Key',
    });
    const event = genuineDelivery(github);

    const sent = await post(ingressUrl, event.body, { ...event.headers, 'X-Event-Key': 'evt-1' });

    expect(await entry(relay, sent.body.delivery_id!)).toMatchObject({
      identity: 'evt-1',
      identitySource: 'delivery-id-header',
    });
  });

  it('X-Service-Delivery-Id is used only when the provider sent no delivery header', async () => {
    const { ingressUrl } = await createSignatureWebhook(relay, github);
    const withProvider = genuineDelivery(github);
    const withoutProvider = genuineDelivery(github);
    delete withoutProvider.headers['X-GitHub-Delivery'];
    const service = { 'X-Service-Delivery-Id': 'svc-1' };

    const both = await post(ingressUrl, withProvider.body, { ...withProvider.headers, ...service });
    const onlyService = await post(ingressUrl, withoutProvider.body, {
      ...withoutProvider.headers,
      ...service,
    });

    expect(await entry(relay, both.body.delivery_id!)).toMatchObject({
      identity: withProvider.id,
      identitySource: 'provider-header',
    });
    expect(await entry(relay, onlyService.body.delivery_id!)).toMatchObject({
      identity: 'svc-1',
      identitySource: 'x-service-delivery-id',
    });
  });

  it.each(SENDERS.map((s) => [s.scheme, s.deliveryHeader ?? 'none', s] as const))(
    '%s: identity from the scheme header (%s), else X-Service-Delivery-Id',
    async (_n, _header, sender) => {
      const { ingressUrl } = await createSignatureWebhook(relay, sender);
      const event = genuineDelivery(sender, { id: `id-${randomUUID()}` });

      const sent = await post(ingressUrl, event.body, {
        ...event.headers,
        'X-Service-Delivery-Id': 'svc-fallback',
      });

      expect(await entry(relay, sent.body.delivery_id!)).toMatchObject(
        sender.deliveryHeader === null
          ? { identity: 'svc-fallback', identitySource: 'x-service-delivery-id' }
          : { identity: event.id, identitySource: 'provider-header' },
      );
    },
  );
});
