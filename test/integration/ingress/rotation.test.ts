import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForDeliveries } from '../../support/deliveries.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';
import { storeConfig, storeKinds } from '../../support/stores.js';

/** Seed §4.3: the old secret stops working at once, with no overlap window; the new one is shown once. */
describe.each(storeKinds)('rotating a webhook secret (%s)', (storeKind) => {
  let relay: TestRelay;
  // One relay for the file: every test sends on webhooks of its own, and what the relay decides
  // and logs is per webhook.
  beforeAll(async () => {
    relay = await startTestRelay(storeConfig(storeKind));
  });
  afterAll(() => relay.stop());

  it('refuses the old token at once and accepts the new one', async () => {
    const {
      secret: oldSecret,
      ingressUrl,
      webhook,
    } = await relay.createWebhook({ name: 'rotating' });
    expect((await postDelivery(ingressUrl, '{"n":1}', bearer(oldSecret))).status).toBe(202);

    const rotated = await relay.call('webhooks.rotate', { uid: webhook.uid });
    expect(rotated.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(rotated.secret).not.toBe(oldSecret);
    expect(rotated.ingressUrl).toBe(ingressUrl);

    expect((await postDelivery(ingressUrl, '{"n":2}', bearer(oldSecret))).status).toBe(401);
    expect((await postDelivery(ingressUrl, '{"n":3}', bearer(rotated.secret))).status).toBe(202);

    const [latest, refused] = await waitForDeliveries(relay, webhook.uid, 3);
    expect([latest!.label, refused!.label]).toEqual(['Accepted', 'Rejected (auth)']);
  });

  it('never shows the new secret again: reads carry no secret', async () => {
    const { webhook } = await relay.createWebhook({ name: 'quiet' });
    const rotated = await relay.call('webhooks.rotate', { uid: webhook.uid });
    const secret = rotated.secret;
    // Reads stay raw HTTP: every byte of each answer is searched, not only the contract's fields.
    const read = await relay.api('GET', `/api/webhooks/${webhook.uid}`);
    const list = await relay.api('GET', '/api/webhooks');
    expect(JSON.stringify(read.body)).not.toContain(secret);
    expect(JSON.stringify(list.body)).not.toContain(secret);
    expect(read.body).not.toHaveProperty('secret');
  });

  it('takes a new provider signing secret for a signature webhook', async () => {
    const { webhook } = await relay.createWebhook({
      name: 'signed',
      authMode: 'signature',
      signatureScheme: 'stripe',
      secret: 'whsec_first_signing_secret',
    });
    const rotated = await relay.call('webhooks.rotate', {
      uid: webhook.uid,
      secret: 'whsec_second_signing_secret',
    });
    expect(rotated.secret).toBe('whsec_second_signing_secret');
  });
});
