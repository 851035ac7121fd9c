import { describe, expect, it } from 'vitest';
import { createDeliveriesRepository } from '../../../src/main/store/sqlite/deliveries-repo.js';
import type { DeliveryRecord } from '../../../src/main/store/deliveries.js';
import type { BatchItem } from '../../../src/main/store/delivery-batch.js';
import { createPostgresDeliveriesRepository } from '../../../src/main/store/postgres/deliveries-repo.js';
import { asyncRepository } from '../../../src/main/store/store.js';
import { useContractStores, type ContractDatabase } from '../../support/store-contract.js';
import { accepted, freshEpoch, rejected, seedFactory } from '../../support/store-seeds.js';

const stores = useContractStores();
const HOUR = 3_600_000;
let T0 = 0;

const openLog = (db: ContractDatabase) =>
  db.repository({
    sqlite: (sqlite) => asyncRepository(createDeliveriesRepository(sqlite)),
    postgres: (pool) => createPostgresDeliveriesRepository(pool),
  });

/** Two webhooks; `alpha` gets 24 entries an hour apart (every 4th refused), `beta` 3. */
async function seedLog(db: ContractDatabase): Promise<DeliveryRecord[]> {
  await seedFactory(db, {
    webhooks: [
      { uid: 'wh_alpha', name: 'alpha' },
      { uid: 'wh_beta', name: 'beta' },
    ],
    automations: [{ id: 'aut_triage', name: 'Triage' }],
  });
  const batch: BatchItem[] = [];
  for (let i = 0; i < 24; i++) {
    const at = T0 + i * HOUR;
    batch.push(
      i % 4 === 3
        ? rejected('wh_alpha', at)
        : accepted('wh_alpha', at, `{"n":${i}}`, {
            eventType: i % 2 === 0 ? 'push' : 'pull_request.opened',
            automations: i === 0 ? ['aut_triage'] : [],
          }),
    );
  }
  for (let i = 0; i < 3; i++) batch.push(accepted('wh_beta', T0 + i * HOUR, '{"beta":true}'));
  const { committed } = await db.commit(batch);
  return committed;
}

const newestFirst = (entries: DeliveryRecord[]): DeliveryRecord[] =>
  [...entries].sort((a, b) => (a.id < b.id ? 1 : -1));

describe.each(stores)('the delivery log on $kind', (store) => {
  it('pages a webhook newest first, every entry once, as it was committed', async () => {
    T0 = freshEpoch();
    const db = await store.open();
    const committed = await seedLog(db);
    const log = openLog(db);

    const seen: DeliveryRecord[] = [];
    let before: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof log.page>> = await log.page('wh_alpha', 7, before);
      expect(page.items.length).toBeLessThanOrEqual(7);
      seen.push(...page.items);
      before = page.nextBefore;
    } while (before !== null);

    // A read also says whether a provider link's recovery brought the entry (none here).
    const alpha = newestFirst(committed.filter((d) => d.webhookUid === 'wh_alpha')).map((d) => ({
      ...d,
      recovered: false,
    }));
    expect(seen).toEqual(alpha);
    expect(await log.count('wh_alpha')).toBe(24);
    const first = alpha[alpha.length - 1]!;
    expect(first.runIds).toHaveLength(1);
    expect(await log.get(first.id)).toEqual(first);
    expect(await log.get('dlv_NOPE')).toBeNull();
  });

  it('narrows by labels, event type and time, with exact totals', async () => {
    T0 = freshEpoch();
    const db = await store.open();
    const committed = await seedLog(db);
    const log = openLog(db);
    const alpha = newestFirst(committed.filter((d) => d.webhookUid === 'wh_alpha'));
    const ids = (entries: DeliveryRecord[]) => entries.map((d) => d.id);

    const refused = alpha.filter((d) => d.label === 'Rejected (auth)');
    expect(
      ids((await log.page('wh_alpha', 100, null, { labels: ['Rejected (auth)'] })).items),
    ).toEqual(ids(refused));
    expect(await log.count('wh_alpha', { labels: ['Rejected (auth)', 'Accepted'] })).toBe(24);
    expect(await log.count('wh_alpha', { labels: ['Duplicate'] })).toBe(0);

    const pushes = alpha.filter((d) => d.eventType === 'push');
    expect(ids((await log.page('wh_alpha', 100, null, { eventType: 'push' })).items)).toEqual(
      ids(pushes),
    );

    const from = T0 + 5 * HOUR;
    const to = T0 + 13 * HOUR;
    const window = { from, to, eventType: 'pull_request.opened' };
    const inWindow = alpha.filter(
      (d) => d.receivedAt >= from && d.receivedAt <= to && d.eventType === window.eventType,
    );
    expect(inWindow.map((d) => d.receivedAt)).toEqual([13, 9, 5].map((h) => T0 + h * HOUR));
    const firstPage = await log.page('wh_alpha', 2, null, window);
    expect(ids(firstPage.items)).toEqual(ids(inWindow.slice(0, 2)));
    const secondPage = await log.page('wh_alpha', 2, firstPage.nextBefore, window);
    expect(ids(secondPage.items)).toEqual(ids(inWindow.slice(2)));
    expect(secondPage.nextBefore).toBeNull();
    // The total counts every page, whatever `before` a page was read with.
    expect(await log.count('wh_alpha', window)).toBe(3);
  });

  it('finds a substring of the payload, identity, event type or ID, in any case', async () => {
    T0 = freshEpoch();
    const db = await store.open();
    await seedFactory(db, { webhooks: [{ uid: 'wh_search', name: 'search' }] });
    const entries = [
      accepted('wh_search', T0, '{"customer":"Jürgen Straße","note":"ÉTÉ SALE"}'),
      accepted('wh_search', T0 + 1, '{"city":"Zürich"}', { identity: 'order-Created-4711' }),
      accepted('wh_search', T0 + 2, '{"id":1}', { eventType: 'Invoice.Payment_Failed' }),
      accepted('wh_search', T0 + 3, '{"discount":"100% off_today"}'),
      accepted('wh_search', T0 + 4, '{"greeting":"日本語のテキスト"}'),
    ];
    const { committed } = await db.commit(entries);
    const [sale, zurich, invoice, discount, japanese] = committed.map((d) => d.id) as [
      string,
      string,
      string,
      string,
      string,
    ];
    const log = openLog(db);
    const hits = async (q: string) =>
      (await log.page('wh_search', 50, null, { q })).items.map((d) => d.id);

    expect(await hits('jürgen')).toEqual([sale]);
    expect(await hits('STRASSE')).toEqual([]);
    expect(await hits('straße')).toEqual([sale]);
    expect(await hits('été sale')).toEqual([sale]);
    expect(await hits('ZÜRICH')).toEqual([zurich]);
    expect(await hits('created-47')).toEqual([zurich]);
    expect(await hits('payment_failed')).toEqual([invoice]);
    expect(await hits(invoice.slice(-8).toLowerCase())).toEqual([invoice]);
    expect(await hits('本語のテ')).toEqual([japanese]);
    // Wildcards of the database's pattern language are just characters in a search.
    expect(await hits('100%')).toEqual([discount]);
    expect(await hits('0% off_')).toEqual([discount]);
    expect(await hits('payment%failed')).toEqual([]);
    expect(await log.count('wh_search', { q: '{"C' })).toBe(2);
    expect(await log.count('wh_search', { q: 'nowhere-to-be-found' })).toBe(0);
  });

  it('keeps and searches a payload that is not UTF-8 text', async () => {
    T0 = freshEpoch();
    const db = await store.open();
    await seedFactory(db, { webhooks: [{ uid: 'wh_bytes', name: 'bytes' }] });
    const bytes = Buffer.from([0x7b, 0xff, 0xfe, 0x00, 0x41, 0x7d]);
    const item = accepted('wh_bytes', T0, '', { identity: 'binary-identity' });
    if (item.kind === 'accept') item.item.body = bytes;
    const { committed } = await db.commit([item]);
    const log = openLog(db);

    expect(await log.payload(committed[0]!.id)).toEqual(bytes);
    const found = await log.page('wh_bytes', 10, null, { q: 'BINARY-ident' });
    expect(found.items.map((d) => d.id)).toEqual([committed[0]!.id]);
  });

  it('answers the payload, request, counts and activity of the log', async () => {
    T0 = freshEpoch();
    const db = await store.open();
    const committed = await seedLog(db);
    const log = openLog(db);
    const entry = committed.find((d) => d.label === 'Accepted' && d.webhookUid === 'wh_alpha')!;

    expect((await log.payload(entry.id))?.toString('utf8')).toBe('{"n":0}');
    expect(await log.payload('dlv_NOPE')).toBeNull();
    expect(await log.requestContext(entry.id)).toEqual({
      method: 'POST',
      path: '/webhooks/w/{token}',
      headers: [['X-Test', 'yes']],
    });
    expect(await log.requestContext('dlv_NOPE')).toBeNull();
    expect(await log.countSince(T0 + 20 * HOUR)).toBe(4);
    expect(await log.latestAt('wh_alpha')).toBe(T0 + 23 * HOUR);
    expect(await log.latestAt('wh_none')).toBeNull();

    const activity = await log.activitySince('default', T0 + 21 * HOUR);
    expect(sortRows(activity)).toEqual([
      { uid: 'wh_alpha', hour: 0, label: 'Accepted', n: 1 },
      { uid: 'wh_alpha', hour: 1, label: 'Accepted', n: 1 },
      { uid: 'wh_alpha', hour: 2, label: 'Rejected (auth)', n: 1 },
    ]);
    expect(await log.activitySince('another-factory', T0)).toEqual([]);
    const volume = await log.volumeSince('wh_alpha', T0, 12 * HOUR);
    expect(sortRows(volume)).toEqual([
      { bucket: 0, label: 'Accepted', n: 9 },
      { bucket: 0, label: 'Rejected (auth)', n: 3 },
      { bucket: 1, label: 'Accepted', n: 9 },
      { bucket: 1, label: 'Rejected (auth)', n: 3 },
    ]);
  });
});

/** Grouped counts come in no promised order. */
function sortRows<T extends object>(rows: T[]): T[] {
  return [...rows].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
}
