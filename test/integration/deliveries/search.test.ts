import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRetention } from '../../../src/main/store/sqlite/retention.js';
import { createSearchIndex } from '../../../src/main/store/sqlite/search-index.js';
import { RARE_HITS } from '../../../src/main/store/sqlite/search-plan.js';
import type { MethodInput, MethodOutput } from '../../../src/shared/contract/index.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';
import { indexAll } from '../../support/index-all.js';
import { seedLog } from '../../support/seed-log.js';
import { sqliteDbOf } from '../../../src/main/store/sqlite/sqlite-store.js';

type Query = Omit<MethodInput<'deliveries.list'>, 'uid'>;

const COUNT = 10_000;
/** Accepted (seed labels cycle Accepted ×3, Duplicate, Rejected (auth)). */
const NEEDLE_AT = 4_242;

/** Payloads that look alike: every one mentions orders, only one mentions order_8421. */
const bodyOf = (i: number): string =>
  JSON.stringify({
    action: i % 2 === 0 ? 'opened' : 'closed',
    order: i === NEEDLE_AT ? 'order_8421' : `order_${100_000 + i}`,
    customer: { name: `Customer ${i}`, city: i % 3 === 0 ? 'Zürich' : 'Lyon' },
  });

describe('searching the delivery log (q, labels, time range, total)', () => {
  let relay: TestRelay;
  let uid: string;
  let ids: string[];
  let start: number;

  const list = (query: Query): Promise<MethodOutput<'deliveries.list'>> =>
    relay.call('deliveries.list', { uid, ...query });
  const indexEverything = (): Promise<void> => indexAll(sqliteDbOf(relay.core.store));

  beforeAll(async () => {
    relay = await startTestRelay();
    uid = (await relay.createWebhook({ name: 'orders' })).webhook.uid;
    start = Date.now() - COUNT * 1000;
    ids = seedLog(sqliteDbOf(relay.core.store), uid, COUNT, {
      bodyOf,
      atOf: (i) => start + i * 1000,
      eventTypeOf: (i) => (i % 10 === 0 ? 'invoice.payment_failed' : 'invoice.paid'),
    });
  });
  afterAll(() => relay.stop());

  it('finds the one delivery among 10,000 whose payload holds a word, before and after indexing', async () => {
    const before = await list({ q: 'order_8421' });
    expect(before.items.map((d) => d.id)).toEqual([ids[NEEDLE_AT]]);
    expect(before.total).toBe(1);

    await indexEverything();
    expect(createSearchIndex(sqliteDbOf(relay.core.store)).pending()).toBe(0);
    const after = await list({ q: 'ORDER_8421' });
    expect(after.items.map((d) => d.id)).toEqual([ids[NEEDLE_AT]]);
    expect(after.total).toBe(1);
    expect(after.nextBefore).toBeNull();
  });

  it('finds a delivery by part of its ID, and by part of its identity', async () => {
    await indexEverything();
    const id = ids[7_777]!;
    const middle = id.slice(9, 29);
    const byId = await list({ q: middle });
    expect(byId.items.map((d) => d.id)).toContain(id);
    expect(byId.items.every((d) => d.id.includes(middle))).toBe(true);

    const byIdentity = await list({ q: 'seed-7777' });
    expect(byIdentity.items.map((d) => d.identity)).toEqual(['seed-7777']);
  });

  it('finds deliveries by part of their event type, and filters by an exact event type', async () => {
    const byPart = await list({ q: 'payment_fail', limit: 5 });
    expect(byPart.total).toBe(COUNT / 10);
    expect(byPart.items.every((d) => d.eventType === 'invoice.payment_failed')).toBe(true);
    await indexEverything();
    expect((await list({ q: 'PAYMENT_FAIL', limit: 5 })).total).toBe(COUNT / 10);

    const exact = await list({ eventType: 'invoice.paid', labels: 'Duplicate', limit: 5 });
    expect(exact.total).toBe(ids.filter((_, i) => i % 10 !== 0 && i % 5 === 3).length);
    expect(
      exact.items.every((d) => d.eventType === 'invoice.paid' && d.label === 'Duplicate'),
    ).toBe(true);
  });

  it('combines labels, a time range and q, and counts exactly what matches on every page', async () => {
    await indexEverything();
    // Entries 6,000..6,999: a thousand seconds of the log.
    const from = new Date(start + 6_000 * 1000).toISOString();
    const to = start + 6_999 * 1000;
    // Rejected (auth) entries keep no payload, so "opened" can only match Accepted ones…
    const opened = ids.filter((_, i) => i >= 6_000 && i <= 6_999 && i % 5 < 3 && i % 2 === 0);
    const labels = 'Accepted,Rejected (auth)';
    const page1 = await list({ labels, from, to, q: 'opened', limit: 100 });
    expect(page1.total).toBe(opened.length);
    expect(page1.items).toHaveLength(100);
    expect(page1.items.map((d) => d.id)).toEqual([...opened].reverse().slice(0, 100));
    const page2 = await list({
      labels,
      from,
      to,
      q: 'opened',
      limit: 100,
      before: page1.nextBefore!,
    });
    expect(page2.total).toBe(opened.length);
    expect(page2.items[0]!.id < page1.items[99]!.id).toBe(true);

    // …and without q, both labels count in the range, each exactly once.
    const both = await list({ labels, from, to, limit: 1 });
    const inRange = ids.filter((_, i) => i >= 6_000 && i <= 6_999 && (i % 5 < 3 || i % 5 === 4));
    expect(both.total).toBe(inRange.length);

    const all = await list({ limit: 1 });
    expect(all.total).toBe(COUNT);
  });

  it('pages a rare text, an ID prefix and a common word newest first, each with its exact total on every page', async () => {
    await indexEverything();
    // Rare and ID-shaped searches are answered from their own hits, a common word (more than
    // search-plan.ts's RARE_HITS) by walking the webhook newest first: the same rows either way.
    const accepted = (i: number): boolean => i % 5 < 3;
    const expected = {
      'Customer 42': ids.filter((_, i) => accepted(i) && String(i).startsWith('42')),
      Lyon: ids.filter((_, i) => accepted(i) && i % 3 !== 0),
      [ids[5_555]!.slice(0, 12)]: ids.filter((id) => id.startsWith(ids[5_555]!.slice(0, 12))),
    };
    expect(expected.Lyon.length).toBeGreaterThan(RARE_HITS);
    for (const [q, matching] of Object.entries(expected)) {
      const seen: string[] = [];
      let before: string | undefined;
      do {
        const page = await list({ q: q.toUpperCase(), limit: 200, ...(before && { before }) });
        expect(page.total).toBe(matching.length);
        seen.push(...page.items.map((d) => d.id));
        before = page.nextBefore ?? undefined;
      } while (before);
      expect(seen).toEqual([...matching].reverse());
    }
  });

  it("finds a webhook's entry while it is still queued for the index, and not another webhook's", async () => {
    const db = sqliteDbOf(relay.core.store);
    const mine = await relay.createWebhook({ name: 'queued-mine' });
    const theirs = await relay.createWebhook({ name: 'queued-theirs' });
    const body = (): string => JSON.stringify({ parcel: 'kiwi-crate-7' });
    const own = seedLog(db, mine.webhook.uid, 3, { bodyOf: body });
    seedLog(db, theirs.webhook.uid, 3, { bodyOf: body });
    const found = await relay.call('deliveries.list', { uid: mine.webhook.uid, q: 'KIWI-crate' });
    expect(found.items.map((d) => d.id)).toEqual([...own].reverse());
    expect(found.total).toBe(3);
  });

  it('forgets what retention prunes, and finds what a replay adds', async () => {
    const created = await relay.createWebhook({ name: 'pruned-and-replayed' });
    const own = created.webhook.uid;
    const old = Date.now() - 30 * 24 * 3600_000;
    const seeded = seedLog(sqliteDbOf(relay.core.store), own, 60, {
      atOf: (i) => old + i * 1000,
      bodyOf: (i) => JSON.stringify({ invoice: `inv-${i}`, note: 'quarterly-report' }),
    });
    await indexEverything();
    const search = (q: string) => relay.call('deliveries.list', { uid: own, q });
    expect((await search('quarterly-report')).total).toBe(36); // 60 entries, 3 in 5 Accepted

    // Retention keeps the newest 50: entries 0..9 go, with their payloads and index rows.
    const removed = await createRetention(sqliteDbOf(relay.core.store)).prune(
      { days: 7, minPerWebhook: 50, dedupeWindowMs: 7 * 24 * 3600_000 },
      Date.now(),
    );
    expect(removed).toBeGreaterThanOrEqual(10);
    expect((await search('inv-5"')).total).toBe(0); // entry 5 was Accepted, and pruned
    expect((await search('inv-15"')).total).toBe(1);
    expect((await search('quarterly-report')).total).toBe(30);

    // A replay is a new Accepted entry: found at once (still queued), and once indexed.
    const original = seeded[57]!; // Accepted: 57 % 5 === 2
    const replay = await relay.call('deliveries.replay', { id: original });
    const found = await search('inv-57');
    expect(found.items.map((d) => d.id).sort()).toEqual([original, replay.delivery_id].sort());
    await indexEverything();
    expect((await search('inv-57')).total).toBe(2);
    expect((await search('quarterly-report')).total).toBe(31);
  });

  it('finds deliveries that came in through the ingress, by payload text and identity', async () => {
    const created = await relay.createWebhook({ name: 'live' });
    const url = created.ingressUrl;
    const sent = await postDelivery(url, '{"ticket":"SUP-20931","status":"open"}', {
      ...bearer(created.secret),
      'x-service-delivery-id': 'zendesk-evt-551',
    });
    expect(sent.status).toBe(202);
    const q = async (text: string): Promise<string[]> =>
      (await relay.call('deliveries.list', { uid: created.webhook.uid, q: text })).items.map(
        (d) => d.id,
      );
    expect(await q('sup-20931')).toEqual([sent.body.delivery_id]);
    expect(await q('evt-551')).toEqual([sent.body.delivery_id]);
    await indexEverything();
    expect(await q('"status":"open"')).toEqual([sent.body.delivery_id]);
    expect(await q('status":"closed')).toEqual([]);
  });

  it('refuses a search it cannot answer, saying why', async () => {
    const bad = async (query: Query) => {
      const refused = await relay.callError('deliveries.list', { uid, ...query });
      expect(refused.code).toBe('invalid_input');
      return refused;
    };
    expect((await bad({ q: 'ab' })).message).toContain('at least 3 characters');
    expect((await bad({ labels: 'Accepted,Nope' })).message).toContain('unknown label "Nope"');
    expect((await bad({ from: 'yesterday' })).message).toContain('ISO 8601');
    const reversed = await bad({ from: Date.now(), to: Date.now() - 1000 });
    expect(reversed).toMatchObject({ path: 'from' });
    expect(reversed.message).toContain('not be later than to');
  });
});
