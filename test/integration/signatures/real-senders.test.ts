import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { getDelivery } from '../../support/deliveries.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';
import { createSignatureWebhook, deleteAllWebhooks, entry, post } from './support/relay-calls.js';
import { genuineDelivery, SENDERS } from './support/senders.js';

const gitlab = SENDERS.find((s) => s.scheme === 'gitlab')!;
const shopify = SENDERS.find((s) => s.scheme === 'shopify')!;

/** Found by testing against what the providers really send (§13). */
describe('senders as they really are', () => {
  let relay: TestRelay;
  beforeAll(async () => {
    relay = await startTestRelay();
  });
  afterEach(() => deleteAllWebhooks(relay));
  afterAll(() => relay.stop());

  it('gitlab: a resend (new X-Gitlab-Event-UUID, same Idempotency-Key) is a Duplicate that runs nothing', async () => {
    const { ingressUrl } = await createSignatureWebhook(relay, gitlab);
    const original = genuineDelivery(gitlab);
    // GitLab's "Resend request": a new event UUID for the attempt, the same idempotency key.
    const resend = {
      ...original.headers,
      'X-Gitlab-Event-UUID': randomUUID(),
    };
    expect(resend['X-Gitlab-Event-UUID']).not.toBe(original.headers['X-Gitlab-Event-UUID']);

    const first = await post(ingressUrl, original.body, original.headers);
    const again = await post(ingressUrl, original.body, resend);
    expect([first.status, again.status]).toEqual([202, 202]);
    expect(await entry(relay, first.body.delivery_id!)).toMatchObject({
      label: 'Accepted',
      identity: original.id,
      identitySource: 'provider-header',
    });
    expect(await entry(relay, again.body.delivery_id!)).toMatchObject({
      label: 'Duplicate',
      duplicateOf: first.body.delivery_id,
    });
  });

  it('shopify: the Events API’s Shopify-Hmac-Sha256 (no X-) is accepted, with its topic and webhook ID', async () => {
    const { ingressUrl } = await createSignatureWebhook(relay, shopify);
    const body = Buffer.from('{"id":1,"financial_status":"paid"}');
    const signature = createHmac('sha256', shopify.secret).update(body).digest('base64');
    const id = randomUUID();
    const sent = await post(ingressUrl, body, {
      'Content-Type': 'application/json',
      'shopify-hmac-sha256': signature,
      'shopify-topic': 'orders/paid',
      'shopify-shop-domain': 'shop.myshopify.com',
      'shopify-api-version': '2025-07',
      'shopify-webhook-id': id,
    });
    expect(sent.status).toBe(202);
    expect(await getDelivery(relay, sent.body.delivery_id!)).toMatchObject({
      label: 'Accepted',
      eventType: 'orders/paid',
      identity: id,
      identitySource: 'provider-header',
    });
    const forged = await post(ingressUrl, body, { 'shopify-hmac-sha256': `x${signature}` });
    expect(forged.status).toBe(401);
  });

  it('shopify: both signature header names at once is a 401, not a choice', async () => {
    const { ingressUrl } = await createSignatureWebhook(relay, shopify);
    const body = Buffer.from('{}');
    const signature = createHmac('sha256', shopify.secret).update(body).digest('base64');
    const sent = await post(ingressUrl, body, {
      'X-Shopify-Hmac-Sha256': signature,
      'Shopify-Hmac-Sha256': signature,
    });
    expect(sent.status).toBe(401);
  });

  it('"secret": "" means blank: standard-webhooks generates a whsec_ the provider’s library accepts', async () => {
    const created = await relay.call('webhooks.create', {
      name: 'svix',
      authMode: 'signature',
      signatureScheme: 'standard-webhooks',
      secret: '',
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);

    // Signed by the Standard Webhooks reference library with the generated secret.
    const signer = new Webhook(created.secret!);
    const id = `msg_${randomUUID()}`;
    const now = new Date();
    const payload = '{"type":"user.created"}';
    const sent = await post(created.ingressUrl, payload, {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': signer.sign(id, now, payload),
    });
    expect(sent.status).toBe(202);
  });

  it('"secret": "" means blank for token webhooks and rotation too; a provider scheme still asks for one', async () => {
    const token = await relay.call('webhooks.create', { name: 'tok', secret: '' });
    expect(token.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rotated = await relay.call('webhooks.rotate', { uid: token.webhook.uid, secret: '' });
    expect(rotated.secret).not.toBe(token.secret);
    expect((await postDelivery(rotated.ingressUrl, '{}', bearer(rotated.secret))).status).toBe(202);

    const github = await relay.callError('webhooks.create', {
      name: 'gh',
      authMode: 'signature',
      signatureScheme: 'github',
      secret: '',
    });
    expect(github).toMatchObject({
      code: 'invalid_input',
      path: 'secret',
      message: expect.stringContaining("paste the provider's signing secret") as unknown,
    });
  });
});
