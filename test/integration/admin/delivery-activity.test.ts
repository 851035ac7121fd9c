import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MethodInput } from '../../../src/shared/contract/index.js';
import { logSettled } from '../../support/deliveries.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';

/** What the Webhooks page's sparkline and the inspector's label filter and search read. */
describe('delivery activity and filtered log pages', () => {
  let relay: TestRelay;
  beforeEach(async () => {
    relay = await startTestRelay();
  });
  afterEach(() => relay.stop());

  async function sendMix(): Promise<{ uid: string; quietUid: string; acceptedIds: string[] }> {
    const busy = await relay.createWebhook({ name: 'busy' });
    const quiet = await relay.createWebhook({ name: 'quiet' });
    const acceptedIds: string[] = [];
    for (const n of [1, 2]) {
      const sent = await postDelivery(busy.ingressUrl, `{"n":${n}}`, {
        ...bearer(busy.secret),
        'x-service-delivery-id': `order-${n}`,
      });
      acceptedIds.push(sent.body.delivery_id!);
    }
    await postDelivery(busy.ingressUrl, '{"n":1}', {
      ...bearer(busy.secret),
      'x-service-delivery-id': 'order-1',
    });
    await postDelivery(busy.ingressUrl, '{}', bearer('wrong'));
    await postDelivery(busy.ingressUrl, '{nope', bearer(busy.secret));
    await logSettled(relay);
    return { uid: busy.webhook.uid, quietUid: quiet.webhook.uid, acceptedIds };
  }

  it('counts the last 24 hours by label in the current hour, and the last delivery time', async () => {
    const before = Date.now();
    const { uid, quietUid } = await sendMix();
    const response = await relay.call('deliveries.activity', {});
    const busy = response.items.find((a) => a.uid === uid)!;
    expect(busy.hours).toHaveLength(24);
    expect(busy.hours[23]).toEqual({
      Accepted: 2,
      Duplicate: 1,
      'Rejected (auth)': 1,
      'Rejected (invalid JSON)': 1,
      'Rejected (too large)': 0,
    });
    expect(busy.hours.slice(0, 23).every((h) => Object.values(h).every((n) => n === 0))).toBe(true);
    expect(Date.parse(busy.lastDeliveryAt!)).toBeGreaterThanOrEqual(before - 1000);
    const quiet = response.items.find((a) => a.uid === quietUid)!;
    expect(quiet.lastDeliveryAt).toBeNull();
  });

  it('counts earlier hours in their own bucket, not only the current one', async () => {
    let now = Date.UTC(2030, 0, 1, 12, 30);
    const clocked = await startTestRelay({ now: () => now });
    try {
      const hook = await clocked.createWebhook({ name: 'hourly' });
      const send = (n: number) => postDelivery(hook.ingressUrl, `{"n":${n}}`, bearer(hook.secret));
      expect((await send(1)).status).toBe(202);
      now += 5 * 3_600_000;
      expect((await send(2)).status).toBe(202);
      await logSettled(clocked);
      const response = await clocked.call('deliveries.activity', {});
      const hours = response.items.find((a) => a.uid === hook.webhook.uid)!.hours;
      expect(hours.map((h) => h.Accepted)).toEqual(
        Array.from({ length: 24 }, (_, i) => (i === 18 || i === 23 ? 1 : 0)),
      );
    } finally {
      await clocked.stop();
    }
  });

  it('pages only the entries of one label, or of one identity', async () => {
    const { uid, acceptedIds } = await sendMix();
    const list = (query: Omit<MethodInput<'deliveries.list'>, 'uid'>) =>
      relay.call('deliveries.list', { uid, ...query });

    const accepted = await list({ label: 'Accepted' });
    expect(accepted.items.map((d) => d.id)).toEqual([...acceptedIds].reverse());
    const auth = await list({ label: 'Rejected (auth)' });
    expect(auth.items.map((d) => d.label)).toEqual(['Rejected (auth)']);

    const order1 = await list({ identity: 'order-1' });
    expect(order1.items.map((d) => d.label)).toEqual(['Duplicate', 'Accepted']);
    expect(order1.items[1]!.id).toBe(acceptedIds[0]);

    const bad = await relay.callError('deliveries.list', { uid, label: 'Rejected' });
    expect(bad).toMatchObject({ code: 'invalid_input', path: 'label' });
  });
});
