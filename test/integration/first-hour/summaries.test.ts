import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getDelivery, listDeliveries, type Delivery } from '../../support/deliveries.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';
import { storeConfig, storeKinds } from '../../support/stores.js';
import { waitFor } from '../../support/wait.js';
import { createSignatureWebhook, post } from '../signatures/support/relay-calls.js';
import { nowSeconds, SENDERS } from '../signatures/support/senders.js';

const github = SENDERS.find((s) => s.scheme === 'github')!;
const stripe = SENDERS.find((s) => s.scheme === 'stripe')!;

/** A pull request as GitHub sends it (docs.github.com, "pull_request" event), trimmed. */
const pullRequest = {
  action: 'opened',
  number: 42,
  pull_request: { number: 42, title: 'Fix retries', state: 'open', user: { login: 'octocat' } },
  repository: { full_name: 'acme/api', name: 'api' },
  sender: { login: 'octocat' },
};

const search = async (relay: TestRelay, uid: string, q: string): Promise<Delivery[]> => {
  const response = await relay.api<{ items: Delivery[] }>(
    'GET',
    `/api/webhooks/${uid}/deliveries?q=${encodeURIComponent(q)}`,
  );
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.items;
};

describe.each(storeKinds)('a delivery’s one-line summary (%s)', (storeKind) => {
  let relay: TestRelay;
  beforeEach(async () => {
    relay = await startTestRelay(storeConfig(storeKind));
  });
  afterEach(() => relay.stop());

  it('is in the list, the detail and the live event, and found by q', async () => {
    const { webhook, ingressUrl } = await createSignatureWebhook(relay, github);
    const events: Delivery[] = [];
    const off = relay.core.events.subscribe((event) => {
      if (event.type === 'delivery') events.push(event.delivery);
    });
    const body = Buffer.from(JSON.stringify(pullRequest));
    const headers = {
      ...github.sign(body, github.secret, nowSeconds(), randomUUID()),
      'Content-Type': 'application/json',
      'X-GitHub-Event': 'pull_request',
    };
    const sent = await post(ingressUrl, body, headers);
    expect(sent.status).toBe(202);
    const summary = 'acme/api #42 opened: Fix retries';
    expect((await listDeliveries(relay, webhook.uid)).items[0]).toMatchObject({ summary });
    expect(await getDelivery(relay, sent.body.delivery_id!)).toMatchObject({ summary });
    await waitFor(() => events.length > 0, 'the delivery event');
    off();
    expect(events[0]).toMatchObject({ summary });
    // Words only the summary holds ("#42 opened"), before and after the index takes the entry.
    expect((await search(relay, webhook.uid, '#42 opened: fix')).map((d) => d.id)).toEqual([
      sent.body.delivery_id,
    ]);
    await waitFor(
      async () => (await relay.core.store.metrics.searchPending()) === 0,
      'the search index to take the entry',
      { timeoutMs: 30_000 },
    );
    expect((await search(relay, webhook.uid, '#42 opened: fix')).map((d) => d.id)).toEqual([
      sent.body.delivery_id,
    ]);
    expect(await search(relay, webhook.uid, '#43 opened')).toEqual([]);
  });

  it('reads Stripe amounts as the dashboard shows them', async () => {
    const { webhook, ingressUrl } = await createSignatureWebhook(relay, stripe);
    const seconds = nowSeconds();
    const body = Buffer.from(
      JSON.stringify({
        id: 'evt_1',
        object: 'event',
        type: 'invoice.paid',
        data: { object: { amount_paid: 4200, currency: 'eur', customer: 'cus_Abc123' } },
      }),
    );
    expect(
      (await post(ingressUrl, body, stripe.sign(body, stripe.secret, seconds, ''))).status,
    ).toBe(202);
    expect((await listDeliveries(relay, webhook.uid)).items[0]?.summary).toBe(
      'invoice.paid · 42.00 EUR · cus_Abc123',
    );
  });

  it('for a token webhook nothing evaluates, is derived when read; rejected entries have none', async () => {
    const { webhook, secret, ingressUrl } = await relay.createWebhook({ name: 'nightly' });
    const sent = await postDelivery(
      ingressUrl,
      '{"job":"backup","result":{"status":"failed"}}',
      bearer(secret),
    );
    expect(sent.status).toBe(202);
    expect((await getDelivery(relay, sent.body.delivery_id!)).summary).toBe(
      'job: backup · status: failed',
    );
    expect((await postDelivery(ingressUrl, '{"job":', bearer(secret))).status).toBe(400);
    const items = (await listDeliveries(relay, webhook.uid)).items;
    expect(items.map((d) => [d.label, d.summary])).toEqual([
      ['Rejected (invalid JSON)', null],
      ['Accepted', 'job: backup · status: failed'],
    ]);
  });
});

describe('a GitHub delivery sent as a form (GitHub’s default content type)', () => {
  let relay: TestRelay;
  beforeEach(async () => {
    relay = await startTestRelay();
  });
  afterEach(() => relay.stop());

  it('stays Rejected (invalid JSON), and its reason names the content type to choose', async () => {
    const { webhook, ingressUrl } = await createSignatureWebhook(relay, github);
    const body = Buffer.from(`payload=${encodeURIComponent(JSON.stringify(pullRequest))}`, 'utf8');
    const sent = await post(ingressUrl, body, {
      ...github.sign(body, github.secret, nowSeconds(), randomUUID()),
      'Content-Type': 'application/x-www-form-urlencoded',
      'X-GitHub-Event': 'pull_request',
    });
    expect(sent.status).toBe(400);
    const reason =
      "GitHub sent application/x-www-form-urlencoded: set the hook's Content type to application/json";
    // GitHub shows the answer in the hook's Recent Deliveries: the sender reads the fix there too.
    expect(JSON.stringify(sent.body)).toContain('application/json');
    await waitFor(
      async () => (await listDeliveries(relay, webhook.uid)).items.length === 1,
      'the rejection in the log',
    );
    const [entry] = (await listDeliveries(relay, webhook.uid)).items;
    expect(entry).toMatchObject({ label: 'Rejected (invalid JSON)', reason, summary: null });
  });

  it('names the fix for a token webhook too, and leaves other invalid bodies as they were', async () => {
    const { webhook, secret, ingressUrl } = await relay.createWebhook({ name: 'forms' });
    const form = await postDelivery(ingressUrl, 'payload=%7B%22a%22%3A1%7D', {
      ...bearer(secret),
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(form.status).toBe(400);
    const plain = await postDelivery(ingressUrl, 'a=1&b=2', {
      ...bearer(secret),
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(plain.status).toBe(400);
    await waitFor(
      async () => (await listDeliveries(relay, webhook.uid)).items.length === 2,
      'both rejections in the log',
    );
    const [other, named] = (await listDeliveries(relay, webhook.uid)).items;
    expect(named?.reason).toContain('set its content type to application/json');
    expect(other?.reason).toMatch(/^body is not valid JSON/);
  });
});
