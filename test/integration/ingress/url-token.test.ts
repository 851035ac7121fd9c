import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { waitForDeliveries } from '../../support/deliveries.js';
import {
  bearer,
  postDelivery,
  startTestRelay,
  type CreatedWebhook,
  type TestRelay,
} from '../../support/relay.js';
import { storeConfig, storeKinds } from '../../support/stores.js';

/**
 * PRODUCT §3/§4: a `url_token` webhook takes its secret as the last path segment; after creation
 * every read shows the URL with a `{token}` placeholder, and only create/rotate reveal it.
 */
describe.each(storeKinds)('a url_token webhook (%s)', (storeKind) => {
  let relay: TestRelay;
  let hook: CreatedWebhook;
  let token: string;
  beforeAll(async () => {
    relay = await startTestRelay(storeConfig(storeKind));
  });
  afterAll(() => relay.stop());
  // A webhook of its own per test: its log and failed-auth budget are the test's alone (deleted
  // after it, since a factory holds 20 live webhooks).
  beforeEach(async () => {
    hook = await relay.createWebhook({ name: 'in-url', authMode: 'url_token' });
    token = hook.secret!;
  });
  afterEach(() => relay.call('webhooks.delete', { uid: hook.webhook.uid }));

  const base = () => `${relay.ingressUrl}/webhooks/w/${hook.webhook.uid}`;

  it('shows its real URL once, at creation, and accepts deliveries posted to it', async () => {
    expect(token).toMatch(/^[A-Za-z0-9._~-]{16,}$/);
    expect(hook.ingressUrl).toBe(`${base()}/${token}`);
    const sent = await postDelivery(hook.ingressUrl, '{"hello":"world"}');
    expect(sent.status).toBe(202);
  });

  it('answers 401 without the token segment or with a wrong one, and logs "Rejected (auth)"', async () => {
    expect((await postDelivery(base(), '{}')).status).toBe(401);
    expect((await postDelivery(`${base()}/${token.slice(0, -1)}x`, '{}')).status).toBe(401);
    expect((await postDelivery(`${base()}/${token}`, '{}', bearer(token))).status).toBe(202);
    const entries = await waitForDeliveries(relay, hook.webhook.uid, 3);
    expect(entries.map((e) => e.label).sort()).toEqual([
      'Accepted',
      'Rejected (auth)',
      'Rejected (auth)',
    ]);
  });

  it('renders the token as {token} in every read after creation', async () => {
    const placeholder = `${base()}/{token}`;
    // Raw HTTP: every byte of each answer is searched for the token, not only the contract's fields.
    const one = await relay.api<{ ingressUrl: string }>('GET', `/api/webhooks/${hook.webhook.uid}`);
    const list = await relay.api<{ items: Array<{ uid: string; ingressUrl: string }> }>(
      'GET',
      '/api/webhooks',
    );
    expect(one.body.ingressUrl).toBe(placeholder);
    expect(list.body.items.find((w) => w.uid === hook.webhook.uid)?.ingressUrl).toBe(placeholder);
    expect(hook.webhook.ingressUrl).toBe(placeholder);
    for (const body of [one.body, list.body]) expect(JSON.stringify(body)).not.toContain(token);

    const patched = await relay.api('PATCH', `/api/webhooks/${hook.webhook.uid}`, {
      name: 'moved',
    });
    expect(JSON.stringify(patched.body)).not.toContain(token);
  });

  it('reveals the new token once on rotation; the old URL stops at once', async () => {
    const rotated = await relay.call('webhooks.rotate', { uid: hook.webhook.uid });
    expect(rotated.ingressUrl).toBe(`${base()}/${rotated.secret}`);
    expect((await postDelivery(hook.ingressUrl, '{}')).status).toBe(401);
    expect((await postDelivery(rotated.ingressUrl, '{}')).status).toBe(202);
    // The raw answer, every byte of it: the token must not be on the wire at all.
    const read = await relay.api('GET', `/api/webhooks/${hook.webhook.uid}`);
    expect(JSON.stringify(read.body)).not.toContain(rotated.secret);
  });

  it('is not reachable with a token segment when it is a Bearer-token webhook (404)', async () => {
    const bearerHook = await relay.createWebhook({ name: 'header-token' });
    const withSegment = `${bearerHook.ingressUrl}/${bearerHook.secret}`;
    const sent = await postDelivery(withSegment, '{}', bearer(bearerHook.secret));
    expect(sent.status).toBe(404);
    expect((await postDelivery(`${bearerHook.ingressUrl}/extra/segments`, '{}')).status).toBe(404);
  });
});
