import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/main/store/sqlite/db.js';
import { countByPartsCall, countCall } from '../../../src/main/store/sql/deliveries.js';
import type { SearchWindow } from '../../../src/main/store/sql/delivery-filter.js';
import { sqliteDialect } from '../../../src/main/store/sqlite/dialect.js';
import { queriesOn } from '../../../src/main/store/sqlite/queries.js';
import { createRetention } from '../../../src/main/store/sqlite/retention.js';
import { keptSearchTotals } from '../../../src/main/store/sqlite/search-totals.js';
import { RARE_HITS } from '../../../src/main/store/sqlite/search-plan.js';
import { sqliteDbOf } from '../../../src/main/store/sqlite/sqlite-store.js';
import type { MethodInput, MethodOutput } from '../../../src/shared/contract/index.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';
import { indexAll } from '../../support/index-all.js';
import { seedLog } from '../../support/seed-log.js';

type Query = Omit<MethodInput<'deliveries.list'>, 'uid'>;

const DAY_MS = 24 * 3600_000;
/** In every Accepted payload of both webhooks: more hits than RARE_HITS, a common text. */
const COMMON = 'parcel-lyon';
/** In every Accepted payload of the other webhook, and in every 100th entry of ours only. */
const SPARSE = 'fragile-crate';
const OURS = 4_000;
const THEIRS = 3_000;

const bodyOf = (i: number): string =>
  JSON.stringify({ n: i, note: COMMON, ...(i % 100 === 0 ? { care: SPARSE } : {}) });

/**
 * A common text (more hits in the index than search-plan.ts's RARE_HITS) takes the windowed page
 * and the kept total (sqlite/search-window.ts, search-totals.ts): pages and totals must answer
 * exactly what a plain scan of the log answers, while entries arrive, are queued, and are pruned.
 */
describe('searching a common text: windowed pages and kept totals', () => {
  let relay: TestRelay;
  let db: Db;
  let ours: { uid: string; ingressUrl: string; secret: string | null };
  let start: number;

  const list = (query: Query): Promise<MethodOutput<'deliveries.list'>> =>
    relay.call('deliveries.list', { uid: ours.uid, ...query });
  const indexEverything = (): Promise<void> => indexAll(db);
  /** The answer of a plain scan of the log (the oracle): newest first. */
  const scanned = (text: string, from = 0, to = Number.MAX_SAFE_INTEGER): string[] =>
    db
      .prepare(
        `SELECT d.id FROM deliveries d JOIN payloads p ON p.delivery_id = d.id
         WHERE d.webhook_uid = ? AND d.received_at BETWEEN ? AND ?
           AND instr(lower(CAST(p.body AS TEXT)), ?) > 0 ORDER BY d.id DESC`,
      )
      .pluck()
      .all(ours.uid, from, to, text) as string[];
  /** Every page of a search, followed by `nextBefore`; the total each page reported. */
  const allPages = async (
    query: Query,
  ): Promise<{ ids: string[]; totals: (number | undefined)[] }> => {
    const ids: string[] = [];
    const totals: (number | undefined)[] = [];
    for (let before: string | undefined; ;) {
      const page = await list({ ...query, limit: 200, ...(before ? { before } : {}) });
      ids.push(...page.items.map((d) => d.id));
      totals.push(page.total);
      if (page.nextBefore === null) return { ids, totals };
      before = page.nextBefore;
    }
  };

  beforeAll(async () => {
    relay = await startTestRelay();
    db = sqliteDbOf(relay.core.store);
    const created = await relay.createWebhook({ name: 'parcels' });
    ours = { uid: created.webhook.uid, ingressUrl: created.ingressUrl, secret: created.secret };
    const theirs = (await relay.createWebhook({ name: 'crates' })).webhook.uid;
    // Ours: one entry a minute, the oldest 10 days ago (past a 7-day retention).
    start = Date.now() - 10 * DAY_MS;
    seedLog(db, ours.uid, OURS, { bodyOf, atOf: (i) => start + i * 60_000 });
    seedLog(db, theirs, THEIRS, {
      bodyOf: () => JSON.stringify({ note: COMMON, care: SPARSE }),
      atOf: (i) => start + i * 60_000 + 30_000,
      labelOf: () => 'Accepted',
    });
    await indexEverything();
    // Both texts are common in the index: these tests are about the common plan.
    expect(scanned(COMMON).length + THEIRS).toBeGreaterThan(RARE_HITS);
    expect(scanned(SPARSE).length + THEIRS).toBeGreaterThan(RARE_HITS);
  });
  afterAll(() => relay.stop());

  it('pages a common and a sparse text newest first, every match once, each page with the exact total', async () => {
    for (const text of [COMMON, SPARSE, 'PARCEL-LYON']) {
      const expected = scanned(text.toLowerCase());
      const { ids, totals } = await allPages({ q: text });
      expect(ids).toEqual(expected);
      expect(new Set(totals)).toEqual(new Set([expected.length]));
    }
    // Labels leave no hit at all among the webhook's entries (Duplicate keeps no payload).
    expect(await list({ q: COMMON, labels: 'Duplicate' })).toMatchObject({
      items: [],
      total: 0,
      nextBefore: null,
    });
  });

  it('answers a time range exactly at its edges', async () => {
    const at = (i: number): number => start + i * 60_000;
    // Entry 1000 is Accepted (1000 % 5 === 0) and holds the sparse text.
    for (const [from, to] of [
      [at(1000), at(3000)],
      [at(1000) + 1, at(3000) - 1],
      [at(3900), Date.now()],
      [at(100), at(100)],
    ] as const) {
      const expected = scanned(SPARSE, from, to);
      const page = await list({ q: SPARSE, from, to });
      expect(page.items.map((d) => d.id)).toEqual(expected);
      expect(page.total).toBe(expected.length);
      const common = await allPages({ q: COMMON, from, to });
      expect(common.ids).toEqual(scanned(COMMON, from, to));
      expect(new Set(common.totals)).toEqual(new Set([common.ids.length]));
    }
    expect((await list({ q: SPARSE, from: at(100), to: at(100) })).total).toBe(1);
    expect((await list({ q: SPARSE, from: at(100) + 1, to: at(199) })).total).toBe(0);
  });

  it('keeps the total exact while entries arrive (found while still queued) and once indexed', async () => {
    const first = await list({ q: COMMON });
    expect(first.total).toBe(scanned(COMMON).length);

    const sent = await postDelivery(ours.ingressUrl, JSON.stringify({ note: 'Parcel-Lyon' }), {
      ...bearer(ours.secret),
    });
    expect(sent.status).toBe(202);
    const queued = await list({ q: COMMON, limit: 5 });
    expect(queued.items[0]!.id).toBe(sent.body.delivery_id);
    expect(queued.total).toBe(first.total! + 1);
    // The next page and the same search again: the total counted past what it had counted.
    const next = await list({ q: COMMON, limit: 5, before: queued.nextBefore! });
    expect(next.total).toBe(first.total! + 1);

    await indexEverything();
    const indexed = await list({ q: COMMON, limit: 5 });
    expect(indexed.items[0]!.id).toBe(sent.body.delivery_id);
    expect(indexed.total).toBe(first.total! + 1);
    expect(indexed.total).toBe(scanned(COMMON).length);
  });

  it("counts again when the log's newest entry is deleted and a new entry takes its rowid", async () => {
    const counted = await list({ q: COMMON });
    const newest = db
      .prepare('SELECT rowid AS rowid, id FROM deliveries ORDER BY rowid DESC LIMIT 1')
      .get() as { rowid: number; id: string };
    db.prepare('DELETE FROM deliveries WHERE rowid = ?').run(newest.rowid);
    // One entry of ours that does not hold the text, under the deleted entry's rowid.
    const [added] = seedLog(db, ours.uid, 1, {
      bodyOf: () => '{"note":"nothing"}',
      labelOf: () => 'Accepted',
    });
    expect(db.prepare('SELECT rowid FROM deliveries WHERE id = ?').pluck().get(added)).toBe(
      newest.rowid,
    );
    await indexEverything(); // Not even queued any more: only the rowid's new owner tells.
    const after = await list({ q: COMMON });
    expect(after.total).toBe(scanned(COMMON).length);
    expect(counted.total).toBeGreaterThan(0);
  });

  it('counts a pruned entry no more, even when as many new entries arrived', async () => {
    const before = await list({ q: COMMON });
    const ranged = await list({ q: COMMON, from: start, to: Date.now() });
    expect(before.total).toBe(scanned(COMMON).length);

    // Retention removes the oldest (10 days old, past 7): ours keeps its newest 3,000.
    const removed = await createRetention(db).prune(
      { days: 7, minPerWebhook: 3_000, dedupeWindowMs: 7 * DAY_MS },
      Date.now(),
    );
    expect(removed).toBeGreaterThan(0);
    // As many new entries as were pruned from ours: the log's size alone would not tell.
    const gone = OURS + 1 - 3_000;
    seedLog(db, ours.uid, gone, { bodyOf: () => JSON.stringify({ note: COMMON }) });

    const after = await allPages({ q: COMMON });
    expect(after.ids).toEqual(scanned(COMMON));
    expect(new Set(after.totals)).toEqual(new Set([after.ids.length]));
    expect((await list({ q: COMMON, from: start, to: Date.now() })).total).toBe(
      scanned(COMMON, start, Date.now()).length,
    );
    expect(ranged.total).toBeGreaterThan(0);
    await indexEverything();
    expect((await list({ q: COMMON })).total).toBe(scanned(COMMON).length);
  });

  it('keeps the total exact through hourly prunes, reading again only the hour each prune cut into', async () => {
    const HOUR_MS = 3600_000;
    const oldest = (): number =>
      db
        .prepare('SELECT min(received_at) FROM deliveries WHERE webhook_uid = ?')
        .pluck()
        .get(ours.uid) as number;
    const prune = (cutoff: number): Promise<number> =>
      createRetention(db).prune(
        { days: 7, minPerWebhook: 0, dedupeWindowMs: 7 * DAY_MS },
        cutoff + 7 * DAY_MS,
      );
    // What a total reads, seen from beside the relay's own statements, on the same file.
    const queries = queriesOn(db);
    const reads: Array<{ whole: boolean; window?: SearchWindow }> = [];
    const total = keptSearchTotals(
      db,
      (uid, only, window) => {
        reads.push({ whole: false, ...(window ? { window } : {}) });
        return queries.run(countCall(sqliteDialect, uid, only, window));
      },
      (uid, only, span, window) => {
        reads.push({ whole: window?.fromRowid === undefined, ...(window ? { window } : {}) });
        return queries.run(countByPartsCall(sqliteDialect, uid, only, span, window));
      },
    );
    expect(total(ours.uid, { q: COMMON })).toBe(scanned(COMMON).length);
    expect(reads.filter((r) => r.whole)).toHaveLength(1);

    const t0 = oldest();
    // A day of hourly prunes and more: the next hours are counted apart one by one as the oldest go.
    const hourly = Array.from({ length: 26 }, (_, i) => 4.5 + i);
    for (const [i, later] of [0.5, 1.25, 1.3, 3.5, ...hourly].entries()) {
      reads.length = 0;
      expect(await prune(t0 + later * HOUR_MS)).toBeGreaterThan(0);
      const sent = await postDelivery(ours.ingressUrl, JSON.stringify({ note: COMMON, i }), {
        ...bearer(ours.secret),
        'X-Service-Delivery-Id': `hourly-${i}`,
      });
      expect(sent.status).toBe(202);
      expect(total(ours.uid, { q: COMMON })).toBe(scanned(COMMON).length);
      // No read from the log's start: only an hour, and what arrived since.
      expect(reads.filter((r) => r.whole)).toEqual([]);
      expect((await list({ q: COMMON })).total).toBe(scanned(COMMON).length);
      const from = t0 + 5 * HOUR_MS;
      expect((await list({ q: COMMON, from })).total).toBe(scanned(COMMON, from).length);
    }
  });
});
