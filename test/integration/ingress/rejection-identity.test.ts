import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';
import { waitFor } from '../../support/wait.js';
import { storeConfig, storeKinds } from '../../support/stores.js';
import type { Delivery } from '../../support/deliveries.js';

describe.each(storeKinds)('a rejected entry (%s)', (storeKind) => {
  let relay: TestRelay;
  // One relay for the file: every test sends on webhooks of its own, and what the relay decides
  // and logs is per webhook.
  beforeAll(async () => {
    relay = await startTestRelay(storeConfig(storeKind));
  });
  afterAll(() => relay.stop());

  const newest = (uid: string): Promise<Delivery> =>
    waitFor(async () => {
      const page = await relay.call('deliveries.list', { uid, limit: 1 });
      return page.items[0];
    }, 'the rejection to reach the log');

  it('keeps the identity the sender claimed in headers, even when the body was never read', async () => {
    const { webhook, ingressUrl } = await relay.createWebhook({ name: 'claims' });
    await postDelivery(ingressUrl, '{}', { ...bearer('wrong'), 'x-service-delivery-id': 'evt-42' });
    expect(await newest(webhook.uid)).toMatchObject({
      label: 'Rejected (auth)',
      identity: 'evt-42',
      identitySource: 'x-service-delivery-id',
    });
  });

  it('falls back to the body hash for invalid JSON, as an accepted delivery would', async () => {
    const { webhook, secret, ingressUrl } = await relay.createWebhook({ name: 'broken' });
    const body = '{"half":';
    await postDelivery(ingressUrl, body, bearer(secret));
    expect(await newest(webhook.uid)).toMatchObject({
      label: 'Rejected (invalid JSON)',
      identity: `sha256:${createHash('sha256').update(body).digest('hex')}`,
      identitySource: 'body-sha256',
    });
  });

  it('records the provider delivery header of a forged signed delivery as a claim', async () => {
    const { webhook, ingressUrl } = await relay.createWebhook({
      name: 'gh',
      authMode: 'signature',
      signatureScheme: 'github',
      secret: 'It is a secret to everybody',
    });
    await postDelivery(ingressUrl, '{}', {
      'x-github-delivery': '72d3162e-cc78-11e3-81ab-4c9367dc0958',
      'x-hub-signature-256': `sha256=${'0'.repeat(64)}`,
    });
    expect(await newest(webhook.uid)).toMatchObject({
      label: 'Rejected (auth)',
      identity: '72d3162e-cc78-11e3-81ab-4c9367dc0958',
      identitySource: 'provider-header',
    });
  });
});
