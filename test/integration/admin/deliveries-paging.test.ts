import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listDeliveries, waitForDeliveries } from '../../support/deliveries.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';

/** PRODUCT §11: GET /api/webhooks/:uid/deliveries?limit&before — newest first, nextBefore null at the end. */
describe('paging through recent deliveries', () => {
  let relay: TestRelay;
  beforeEach(async () => {
    relay = await startTestRelay();
  });
  afterEach(() => relay.stop());

  it('walks the log newest first, page by page, to a null nextBefore', async () => {
    const { secret, ingressUrl, webhook } = await relay.createWebhook({ name: 'paged' });
    const sentIds: string[] = [];
    for (let i = 0; i < 7; i++) {
      sentIds.push(
        (await postDelivery(ingressUrl, `{"n":${i}}`, bearer(secret))).body.delivery_id!,
      );
    }
    const newestFirst = [...sentIds].reverse();

    const first = await listDeliveries(relay, webhook.uid, { limit: 3 });
    expect(first.items.map((d) => d.id)).toEqual(newestFirst.slice(0, 3));
    expect(first.nextBefore).toBe(newestFirst[2]);

    const second = await listDeliveries(relay, webhook.uid, {
      limit: 3,
      before: first.nextBefore!,
    });
    expect(second.items.map((d) => d.id)).toEqual(newestFirst.slice(3, 6));

    const last = await listDeliveries(relay, webhook.uid, { limit: 3, before: second.nextBefore! });
    expect(last.items.map((d) => d.id)).toEqual(newestFirst.slice(6));
    expect(last.nextBefore).toBeNull();

    const exact = await listDeliveries(relay, webhook.uid, { limit: 7 });
    expect(exact.items).toHaveLength(7);
    expect(exact.nextBefore).toBeNull();
  });

  it('lists rejections among the deliveries, in arrival order', async () => {
    const { secret, ingressUrl, webhook } = await relay.createWebhook({ name: 'mixed' });
    await postDelivery(ingressUrl, '{"ok":1}', bearer(secret));
    await postDelivery(ingressUrl, '{"ok":1}', bearer('wrong'));
    await postDelivery(ingressUrl, 'nope', bearer(secret));
    await postDelivery(ingressUrl, '{"ok":1}', bearer(secret));
    const entries = await waitForDeliveries(relay, webhook.uid, 4);
    expect(entries.map((d) => d.label)).toEqual([
      'Duplicate',
      'Rejected (invalid JSON)',
      'Rejected (auth)',
      'Accepted',
    ]);
  });

  it('shows the newest 50 when no limit is given', async () => {
    const { secret, ingressUrl, webhook } = await relay.createWebhook({ name: 'default-page' });
    for (let i = 0; i < 51; i++) await postDelivery(ingressUrl, `{"n":${i}}`, bearer(secret));
    const page = await listDeliveries(relay, webhook.uid);
    expect(page.items).toHaveLength(50);
    expect(page.nextBefore).toBe(page.items[49]!.id);
  });

  it('refuses a limit outside 1–500 or a malformed cursor, naming the field', async () => {
    const { webhook } = await relay.createWebhook({ name: 'bounds' });
    for (const limit of ['0', '501', 'many']) {
      const refused = await relay.callError('deliveries.list', { uid: webhook.uid, limit });
      expect(refused, limit).toMatchObject({ code: 'invalid_input', path: 'limit' });
    }
    const badCursor = await relay.callError('deliveries.list', {
      uid: webhook.uid,
      before: 'yesterday',
    });
    expect(badCursor).toMatchObject({ code: 'invalid_input', path: 'before' });
  });

  it('answers 404 for a webhook that never existed', async () => {
    const refused = await relay.callError('deliveries.list', { uid: `wh_${'0'.repeat(24)}` });
    expect(refused.code).toBe('not_found');
  });
});
