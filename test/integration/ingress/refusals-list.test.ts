import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MethodInput } from '../../../src/shared/contract/index.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';
import { storeConfig, storeKinds } from '../../support/stores.js';

describe.each(storeKinds)('GET /api/refusals: requests the log does not keep (%s)', (storeKind) => {
  let relay: TestRelay;
  const list = (query: MethodInput<'refusals.list'> = {}) => relay.call('refusals.list', query);

  beforeAll(async () => {
    relay = await startTestRelay({ ...storeConfig(storeKind), limits: { deliveriesPerMinute: 1 } });
  });
  afterAll(() => relay.stop());

  it('lists a 404 for an unknown UID, a 405, and a 429 with its reason, newest first', async () => {
    const unknown = `wh_${'0'.repeat(24)}`;
    expect((await postDelivery(`${relay.ingressUrl}/webhooks/w/${unknown}`, '{}')).status).toBe(
      404,
    );
    const { secret, ingressUrl, webhook } = await relay.createWebhook({ name: 'busy' });
    const get = await fetch(ingressUrl);
    expect(get.status).toBe(405);
    expect((await postDelivery(ingressUrl, '{"n":1}', bearer(secret))).status).toBe(202);
    expect((await postDelivery(ingressUrl, '{"n":2}', bearer(secret))).status).toBe(429);

    const { items, counts, lastHour, kept } = await list();
    expect(items.slice(0, 3)).toMatchObject([
      {
        status: 429,
        method: 'POST',
        reason: 'delivery rate limit',
        path: `/webhooks/w/${webhook.uid}`,
        webhookUid: webhook.uid,
        client: '127.0.0.1',
      },
      { status: 405, method: 'GET', webhookUid: webhook.uid },
      {
        status: 404,
        method: 'POST',
        reason: 'no such webhook (unknown or deleted)',
        path: `/webhooks/w/${unknown}`,
        webhookUid: null,
      },
    ]);
    expect(Date.parse(items[0]!.at)).toBeGreaterThan(Date.now() - 60_000);
    expect(counts).toEqual({ 404: 1, 405: 1, 429: 1 });
    expect(lastHour).toEqual({ 404: 1, 405: 1, 429: 1 });
    expect(kept).toBeGreaterThanOrEqual(1_000);

    const status = await relay.call('relay.status', {});
    expect(status.refusalsLastHour).toEqual({ 404: 1, 405: 1, 429: 1 });
  });

  it('shows a sender hitting a disabled URL-token webhook, per webhook, and never its token', async () => {
    const created = await relay.createWebhook({ name: 'tokened', authMode: 'url_token' });
    const token = created.secret!;
    const uid = created.webhook.uid;
    const patched = await relay.call('webhooks.update', { uid, enabled: false });
    expect(patched.enabled).toBe(false);
    const url = `${relay.ingressUrl}/webhooks/w/${uid}/${token}`;
    expect((await postDelivery(url, '{}')).status).toBe(404);
    expect((await postDelivery(`${url}?again=${token}`, '{}')).status).toBe(404);

    const mine = await list({ webhook: uid });
    expect(mine.items).toHaveLength(2);
    expect(mine.items.map((r) => [r.status, r.reason, r.path])).toEqual([
      [404, 'webhook is disabled', `/webhooks/w/${uid}/{token}?…`],
      [404, 'webhook is disabled', `/webhooks/w/${uid}/{token}`],
    ]);
    // Raw: every byte of the answer is searched for the token, not only the contract's fields.
    const everything = await relay.api('GET', '/api/refusals?limit=1000');
    expect(JSON.stringify(everything.body)).not.toContain(token);
  });

  it('refuses a limit it does not serve, and a malformed webhook filter', async () => {
    const tooMany = await relay.callError('refusals.list', { limit: 5000 });
    expect(tooMany.code).toBe('invalid_input');
    const notAUid = await relay.callError('refusals.list', { webhook: 'orders' });
    expect(notAUid.code).toBe('invalid_input');
    expect(notAUid.message).toContain('webhook UID');
  });
});
