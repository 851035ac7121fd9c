import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getSignatureScheme } from '../../../src/main/ingress/schemes/index.js';
import { getDelivery } from '../../support/deliveries.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';
import { storeConfig, storeKinds } from '../../support/stores.js';

/**
 * Seed §4.2 / PRODUCT §3: identity is the first present of the webhook's delivery-ID header, the
 * scheme's own delivery header, X-Service-Delivery-Id, a SHA-256 of the body; scoped per webhook.
 * A duplicate answers 202, is logged "Duplicate" with metadata only and links to the original.
 */
describe.each(storeKinds)('a repeated delivery (%s)', (storeKind) => {
  let relay: TestRelay;
  // One relay for the file: every test sends on webhooks of its own, and identity is scoped per
  // webhook.
  beforeAll(async () => {
    relay = await startTestRelay(storeConfig(storeKind));
  });
  afterAll(() => relay.stop());

  async function expectDuplicate(firstId: string, secondId: string, source: string): Promise<void> {
    const original = await getDelivery(relay, firstId);
    const duplicate = await getDelivery(relay, secondId);
    expect(original).toMatchObject({
      label: 'Accepted',
      identitySource: source,
      duplicateOf: null,
    });
    expect(duplicate).toMatchObject({
      label: 'Duplicate',
      identitySource: source,
      identity: original.identity,
      duplicateOf: firstId,
      payload: null,
      runIds: [],
    });
  }

  it('is a duplicate when the bodies are identical and no identity header is sent', async () => {
    const { secret, ingressUrl } = await relay.createWebhook({ name: 'bodies' });
    const first = await postDelivery(ingressUrl, '{"event":"push","n":1}', bearer(secret));
    const second = await postDelivery(ingressUrl, '{"event":"push","n":1}', bearer(secret));
    expect([first.status, second.status]).toEqual([202, 202]);
    expect(second.body.delivery_id).not.toBe(first.body.delivery_id);
    await expectDuplicate(first.body.delivery_id!, second.body.delivery_id!, 'body-sha256');
    expect((await getDelivery(relay, first.body.delivery_id!)).identity).toMatch(
      /^sha256:[0-9a-f]{64}$/,
    );

    const differentBytes = await postDelivery(
      ingressUrl,
      '{"event":"push", "n":1}',
      bearer(secret),
    );
    expect((await getDelivery(relay, differentBytes.body.delivery_id!)).label).toBe('Accepted');
  });

  it('is a duplicate when X-Service-Delivery-Id repeats, whatever the body', async () => {
    const { secret, ingressUrl } = await relay.createWebhook({ name: 'service-id' });
    const headers = { ...bearer(secret), 'x-service-delivery-id': 'evt-1' };
    const first = await postDelivery(ingressUrl, '{"v":1}', headers);
    const second = await postDelivery(ingressUrl, '{"v":2}', headers);
    await expectDuplicate(
      first.body.delivery_id!,
      second.body.delivery_id!,
      'x-service-delivery-id',
    );
  });

  it('is not a duplicate when the same body comes with different delivery IDs', async () => {
    const { secret, ingressUrl } = await relay.createWebhook({ name: 'retries' });
    const ids: string[] = [];
    for (const id of ['evt-a', 'evt-b']) {
      const sent = await postDelivery(ingressUrl, '{"same":true}', {
        ...bearer(secret),
        'x-service-delivery-id': id,
      });
      ids.push(sent.body.delivery_id!);
    }
    for (const id of ids) expect((await getDelivery(relay, id)).label).toBe('Accepted');
  });

  it("takes the webhook's own delivery-ID header before X-Service-Delivery-Id", async () => {
    const { secret, ingressUrl } = await relay.createWebhook({
      name: 'own-header',
      deliveryIdHeader: 'X-GitHub-Delivery',
    });
    const first = await postDelivery(ingressUrl, '{"v":1}', {
      ...bearer(secret),
      'x-github-delivery': 'gh-42',
      'x-service-delivery-id': 'svc-1',
    });
    const second = await postDelivery(ingressUrl, '{"v":2}', {
      ...bearer(secret),
      'x-github-delivery': 'gh-42',
      'x-service-delivery-id': 'svc-2',
    });
    await expectDuplicate(first.body.delivery_id!, second.body.delivery_id!, 'delivery-id-header');
    expect((await getDelivery(relay, first.body.delivery_id!)).identity).toBe('gh-42');
  });

  it("takes a signed webhook's provider delivery header before X-Service-Delivery-Id", async () => {
    const created = await relay.createWebhook({
      name: 'signed',
      authMode: 'signature',
      signatureScheme: 'standard-webhooks',
    });
    const scheme = getSignatureScheme('standard-webhooks');
    const send = (body: string, serviceId: string) =>
      postDelivery(created.ingressUrl, body, {
        ...scheme.sign({
          body: Buffer.from(body),
          secret: created.secret!,
          timestamp: Math.floor(Date.now() / 1000),
          id: 'msg_same',
          options: null,
        }),
        'x-service-delivery-id': serviceId,
      });
    const first = await send('{"v":1}', 'svc-1');
    const second = await send('{"v":2}', 'svc-2');
    expect([first.status, second.status]).toEqual([202, 202]);
    await expectDuplicate(first.body.delivery_id!, second.body.delivery_id!, 'provider-header');
    expect((await getDelivery(relay, first.body.delivery_id!)).identity).toBe('msg_same');
  });

  it('is scoped per webhook: the same identity on another webhook is accepted', async () => {
    const a = await relay.createWebhook({ name: 'scope-a' });
    const b = await relay.createWebhook({ name: 'scope-b' });
    const onA = await postDelivery(a.ingressUrl, '{"x":1}', bearer(a.secret));
    const onB = await postDelivery(b.ingressUrl, '{"x":1}', bearer(b.secret));
    expect((await getDelivery(relay, onA.body.delivery_id!)).label).toBe('Accepted');
    expect((await getDelivery(relay, onB.body.delivery_id!)).label).toBe('Accepted');
  });
});
