import { describe, expect, it } from 'vitest';
import { createDeliveryScans } from '../../../src/main/store/sqlite/delivery-scans.js';
import { createPostgresDeliveryScans } from '../../../src/main/store/postgres/delivery-scans.js';
import { asyncRepository } from '../../../src/main/store/store.js';
import { useContractStores } from '../../support/store-contract.js';
import { accepted, freshEpoch, rejected, seedFactory } from '../../support/store-seeds.js';

const stores = useContractStores();

describe.each(stores)('delivery scans on $kind', (store) => {
  it('walk a webhook’s Accepted deliveries after a place, and the newest payloads of several', async () => {
    const t0 = freshEpoch();
    const db = await store.open();
    await seedFactory(db, {
      webhooks: [
        { uid: 'wh_one', name: 'one' },
        { uid: 'wh_two', name: 'two' },
      ],
    });
    const { committed } = await db.commit([
      accepted('wh_one', t0, '{"n":1}', { eventType: 'push' }),
      rejected('wh_one', t0 + 1),
      accepted('wh_two', t0 + 2, '{"n":2}'),
      accepted('wh_one', t0 + 3, '{"n":3}'),
      accepted('wh_two', t0 + 4, '{"n":4}'),
      rejected('wh_two', t0 + 5),
    ]);
    const [one1, , two2, one3, two4] = committed;
    const scans = db.repository({
      sqlite: (sqlite) => asyncRepository(createDeliveryScans(sqlite)),
      postgres: (pool) => createPostgresDeliveryScans(pool),
    });

    expect(await scans.acceptedAfter('wh_one', 'dlv_', 10)).toEqual([
      { id: one1!.id, webhookUid: 'wh_one', receivedAt: t0, eventType: 'push', size: 7 },
      { id: one3!.id, webhookUid: 'wh_one', receivedAt: t0 + 3, eventType: null, size: 7 },
    ]);
    expect((await scans.acceptedAfter('wh_one', one1!.id, 10)).map((e) => e.id)).toEqual([
      one3!.id,
    ]);
    expect(await scans.acceptedAfter('wh_one', one3!.id, 10)).toEqual([]);
    expect(await scans.newestAcceptedId('wh_two')).toBe(two4!.id);
    expect(await scans.newestAcceptedId('wh_none')).toBeNull();

    const newest = await scans.newestPayloads(['wh_one', 'wh_two', 'wh_one'], 3);
    expect(newest.map((p) => [p.id, p.body.toString()])).toEqual([
      [two4!.id, '{"n":4}'],
      [one3!.id, '{"n":3}'],
      [two2!.id, '{"n":2}'],
    ]);
    expect(await scans.newestPayloads([], 3)).toEqual([]);
  });
});
