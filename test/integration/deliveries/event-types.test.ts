import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getDelivery, listDeliveries } from '../../support/deliveries.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';
import {
  createSignatureWebhook,
  deleteAllWebhooks,
  post,
} from '../signatures/support/relay-calls.js';
import { nowSeconds, SENDERS, type ProviderSender } from '../signatures/support/senders.js';

const sender = (scheme: ProviderSender['scheme']): ProviderSender =>
  SENDERS.find((s) => s.scheme === scheme)!;

/** A realistic request from each provider: its own body shape and its own event headers. */
const REQUESTS: Array<{
  scheme: ProviderSender['scheme'];
  body: (seconds: number) => object;
  headers?: Record<string, string>;
  eventType: string;
}> = [
  {
    scheme: 'github',
    body: () => ({ action: 'opened', number: 7, pull_request: { state: 'open' } }),
    headers: { 'X-GitHub-Event': 'pull_request', 'X-GitHub-Hook-ID': '42' },
    eventType: 'pull_request.opened',
  },
  {
    scheme: 'github',
    body: () => ({ ref: 'refs/heads/main', commits: [] }),
    headers: { 'X-GitHub-Event': 'push' },
    eventType: 'push',
  },
  {
    scheme: 'shopify',
    body: () => ({ id: 820982911946154500, financial_status: 'paid' }),
    headers: {
      'X-Shopify-Topic': 'orders/paid',
      'X-Shopify-Shop-Domain': 'shop.myshopify.com',
      'X-Shopify-API-Version': '2025-07',
    },
    eventType: 'orders/paid',
  },
  {
    scheme: 'gitlab',
    body: () => ({ object_kind: 'merge_request', event_type: 'merge_request' }),
    headers: { 'X-Gitlab-Event': 'Merge Request Hook' },
    eventType: 'Merge Request Hook',
  },
  {
    scheme: 'stripe',
    body: () => ({ id: 'evt_1', object: 'event', type: 'invoice.paid', data: { object: {} } }),
    eventType: 'invoice.paid',
  },
  {
    scheme: 'standard-webhooks',
    body: () => ({ type: 'user.created', timestamp: '2024-01-01T00:00:00Z', data: {} }),
    eventType: 'user.created',
  },
  {
    scheme: 'linear',
    body: (seconds) => ({
      action: 'create',
      type: 'Issue',
      data: { id: 'i1' },
      webhookTimestamp: seconds * 1000,
    }),
    headers: { 'Linear-Event': 'Issue' },
    eventType: 'Issue',
  },
  {
    scheme: 'slack',
    body: () => ({ type: 'event_callback', team_id: 'T1', event: { type: 'app_mention' } }),
    eventType: 'app_mention',
  },
  {
    scheme: 'paddle',
    body: () => ({
      event_id: 'evt_01',
      event_type: 'transaction.completed',
      occurred_at: '2024-01-01',
    }),
    eventType: 'transaction.completed',
  },
];

describe('the event type of every delivery (§13)', () => {
  let relay: TestRelay;
  beforeAll(async () => {
    relay = await startTestRelay();
  });
  afterEach(() => deleteAllWebhooks(relay));
  afterAll(() => relay.stop());

  it.each(REQUESTS.map((r) => [`${r.scheme} → ${r.eventType}`, r] as const))(
    '%s, in the list item and the detail',
    async (_name, request) => {
      const provider = sender(request.scheme);
      const { webhook, ingressUrl } = await createSignatureWebhook(relay, provider);
      const seconds = nowSeconds();
      const body = Buffer.from(JSON.stringify(request.body(seconds)));
      const headers = {
        'Content-Type': 'application/json',
        ...provider.sign(body, provider.secret, seconds, randomUUID()),
        ...request.headers,
      };
      const sent = await post(ingressUrl, body, headers);
      expect(sent.status).toBe(202);
      const [item] = (await listDeliveries(relay, webhook.uid)).items;
      expect(item).toMatchObject({ label: 'Accepted', eventType: request.eventType });
      expect((await getDelivery(relay, sent.body.delivery_id!)).eventType).toBe(request.eventType);
    },
  );

  it('tells a GitHub pull_request from an issues delivery with the same action', async () => {
    const github = sender('github');
    const { webhook, ingressUrl } = await createSignatureWebhook(relay, github);
    for (const event of ['pull_request', 'issues']) {
      const body = Buffer.from(JSON.stringify({ action: 'opened', [event]: { number: 1 } }));
      const signed = github.sign(body, github.secret, nowSeconds(), randomUUID());
      expect((await post(ingressUrl, body, { ...signed, 'X-GitHub-Event': event })).status).toBe(
        202,
      );
    }
    const items = (await listDeliveries(relay, webhook.uid)).items;
    expect(items.map((d) => d.eventType)).toEqual(['issues.opened', 'pull_request.opened']);
  });

  it('names a rejected GitHub delivery’s event from its header (its body is never parsed)', async () => {
    const github = sender('github');
    const { ingressUrl } = await createSignatureWebhook(relay, github);
    const body = Buffer.from('{"action":"opened"}');
    const forged = github.sign(body, github.otherSecret, nowSeconds(), randomUUID());
    const sent = await post(ingressUrl, body, { ...forged, 'X-GitHub-Event': 'pull_request' });
    expect(sent.status).toBe(401);
    await expect
      .poll(async () => (await listDeliveries(relay, (await firstWebhook(relay)).uid)).items[0])
      .toMatchObject({ label: 'Rejected (auth)', eventType: 'pull_request' });
  });

  it('reads eventTypePath for token, url_token and hmac-sha256 webhooks (API create and PATCH)', async () => {
    const token = await relay.createWebhook({ name: 'jobs', eventTypePath: 'job.kind' });
    expect(token.webhook).toMatchObject({ eventTypePath: 'job.kind' });
    const first = await postDelivery(
      token.ingressUrl,
      '{"job":{"kind":"backup"}}',
      bearer(token.secret),
    );
    expect((await getDelivery(relay, first.body.delivery_id!)).eventType).toBe('backup');

    const patched = await relay.call('webhooks.update', {
      uid: token.webhook.uid,
      eventTypePath: 'header:X-Job-Event',
    });
    expect(patched).toMatchObject({ eventTypePath: 'header:X-Job-Event' });
    const second = await postDelivery(token.ingressUrl, '{"n":2}', {
      ...bearer(token.secret),
      'x-job-event': 'restore',
    });
    expect((await getDelivery(relay, second.body.delivery_id!)).eventType).toBe('restore');

    const cleared = await relay.call('webhooks.update', {
      uid: token.webhook.uid,
      eventTypePath: null,
    });
    expect(cleared).toMatchObject({ eventTypePath: null });

    const hmac = sender('hmac-sha256');
    const { ingressUrl } = await createSignatureWebhook(relay, hmac, { eventTypePath: '$.kind' });
    const body = Buffer.from('{"kind":"order.shipped"}');
    const sent = await post(ingressUrl, body, hmac.sign(body, hmac.secret, 0, ''));
    expect((await getDelivery(relay, sent.body.delivery_id!)).eventType).toBe('order.shipped');
  });

  it('refuses eventTypePath for provider schemes and for a credential header', async () => {
    const github = await relay.callError('webhooks.create', {
      name: 'gh',
      authMode: 'signature',
      signatureScheme: 'github',
      secret: 'gh-secret',
      eventTypePath: 'action',
    });
    expect(github).toMatchObject({
      code: 'invalid_input',
      path: 'eventTypePath',
      message: expect.stringContaining('only token, url_token and hmac-sha256 webhooks') as unknown,
    });
    const credential = await relay.callError('webhooks.create', {
      name: 'tok',
      eventTypePath: 'header:Authorization',
    });
    expect(credential).toMatchObject({
      code: 'invalid_input',
      path: 'eventTypePath',
      message:
        'eventTypePath: Authorization carries a credential and is stored as [redacted]; name another header',
    });
  });
});

async function firstWebhook(relay: TestRelay): Promise<{ uid: string }> {
  const listed = await relay.call('webhooks.list', {});
  return listed.items[0]!;
}
