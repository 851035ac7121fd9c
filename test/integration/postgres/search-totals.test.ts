import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { BatchItem } from '../../../src/main/store/delivery-batch.js';
import type { DeliveryPageFilter } from '../../../src/main/store/deliveries.js';
import { createPostgresBatchStore } from '../../../src/main/store/postgres/batch-store.js';
import { createPostgresDeliveriesRepository } from '../../../src/main/store/postgres/deliveries-repo.js';
import type { PgPool } from '../../../src/main/store/postgres/pool.js';
import { createPostgresRetention } from '../../../src/main/store/postgres/retention.js';
import { createPostgresSearchIndex } from '../../../src/main/store/postgres/search-index.js';
import { savedSearchTotals } from '../../../src/main/store/postgres/saved-totals.js';
import { keptSearchTotals } from '../../../src/main/store/postgres/search-totals.js';
import {
  firstCountPlan,
  type FirstCountRule,
} from '../../../src/main/store/postgres/first-count-plan.js';
import { postgresScanDialect } from '../../../src/main/store/postgres/dialect.js';
import { spanFrom } from '../../../src/main/store/search-total-parts.js';
import { usePostgres } from '../../support/postgres.js';
import { accepted, freshEpoch, rejected } from '../../support/store-seeds.js';
import { waitFor } from '../../support/wait.js';

const postgres = usePostgres();
const DAY_MS = 24 * 60 * 60_000;
const HOUR_MS = 60 * 60_000;
const WEBHOOK = 'wh_searchtotals';
const PAGE = 40;

/**
 * One relay's view of the shared database: its own pool, accept path, indexer and log reads
 * (whose kept totals are its own, in its memory).
 */
function relayOn(pool: PgPool) {
  const batch = createPostgresBatchStore(pool, { dedupeWindowMs: DAY_MS });
  const index = createPostgresSearchIndex(pool);
  return {
    log: createPostgresDeliveriesRepository(pool),
    commit: async (items: BatchItem[]): Promise<void> => {
      for (let start = 0; start < items.length; start += 100) {
        await batch.commit(items.slice(start, start + 100));
      }
    },
    /** A few of the queued rows indexed, as a slice beside the senders does. */
    indexSome: (budgetMs: number) => index.indexSome(budgetMs),
    indexAll: async (): Promise<void> => {
      while ((await index.indexSome(50)).more);
    },
  };
}

/** Entries from `t0`, `stepMs` apart: every other payload mentions Tromsø (in either case), 1 in 5 refused. */
function entries(count: number, t0: number, stepMs = 1): BatchItem[] {
  return Array.from({ length: count }, (_, i) =>
    i % 5 === 4
      ? rejected(WEBHOOK, t0 + i * stepMs)
      : accepted(
          WEBHOOK,
          t0 + i * stepMs,
          JSON.stringify({ city: i % 2 === 0 ? (i % 4 === 0 ? 'TROMSØ' : 'Tromsø') : 'Oslo', i }),
        ),
  );
}

/** Each search finds its number of entries, in a page and a total, queued and then indexed. */
async function expectFound(
  pool: PgPool,
  relay: ReturnType<typeof relayOn>,
  searches: ReadonlyArray<[string, number]>,
): Promise<void> {
  for (const indexed of [false, true]) {
    if (indexed) await relay.indexAll();
    for (const [q, n] of searches) {
      const only = { q };
      expect((await relay.log.page(WEBHOOK, PAGE, null, only)).items, q).toHaveLength(n);
      expect(await relay.log.count(WEBHOOK, only), q).toBe(n);
      expect(await scan(pool, only), q).toHaveLength(n);
    }
  }
}

/** The IDs that match, by reading every entry's own payload: what an exact search must find. */
async function scan(pool: PgPool, only: DeliveryPageFilter): Promise<string[]> {
  const { rows } = await pool.query<{ id: string; body: Buffer; label: string; at: number }>(
    `SELECT d.id, p.body, d.label, d.received_at AS at
     FROM deliveries d JOIN payloads p ON p.delivery_id = d.id
     WHERE d.webhook_uid = $1 ORDER BY d.id DESC`,
    [WEBHOOK],
  );
  const text = only.q!.toLowerCase();
  return rows
    .filter((r) => r.body.toString('utf8').toLowerCase().includes(text))
    .filter((r) => only.from === undefined || r.at >= only.from)
    .filter((r) => only.labels === undefined || only.labels.includes(r.label as 'Accepted'))
    .map((r) => r.id);
}

/** Every page of a search to its end, with the total read beside each page. */
async function everyPage(relay: ReturnType<typeof relayOn>, only: DeliveryPageFilter) {
  const ids: string[] = [];
  const totals: number[] = [];
  for (let before: string | null = null; ;) {
    const page = await relay.log.page(WEBHOOK, PAGE, before, only);
    totals.push(await relay.log.count(WEBHOOK, only));
    ids.push(...page.items.map((d) => d.id));
    if (page.nextBefore === null) return { ids, totals };
    before = page.nextBefore;
  }
}

describe('a search on PostgreSQL, two relays writing', () => {
  it('keeps an exact total across pages while entries arrive through both relays, committed out of ID order', async () => {
    const { pool, openPool } = await postgres.database();
    const a = relayOn(pool);
    const b = relayOn(openPool());
    const t0 = freshEpoch();
    const only: DeliveryPageFilter = { q: 'tromsø' };
    await a.commit(entries(300, t0));
    await a.indexAll();
    expect(await a.log.count(WEBHOOK, only)).toBe((await scan(pool, only)).length);
    // Saved under a digest: the search's text is not kept in the database (version 21).
    const saved = await pool.query<{ row: string }>(
      'SELECT search_totals::text AS row FROM search_totals',
    );
    expect(saved.rows).toHaveLength(1);
    expect(saved.rows[0]!.row).toMatch(/^\("?[0-9a-f]{64}"?,/);
    expect(saved.rows[0]!.row.toLowerCase()).not.toContain('troms');

    // b's entries were received (and got their IDs) before a's next ones, and commit after them.
    const late = entries(150, t0 + 1_000);
    const early = entries(150, t0 + 2_000);
    await a.commit(early);
    await a.indexSome(5);
    expect(await a.log.count(WEBHOOK, only)).toBe((await scan(pool, only)).length);
    expect(await b.log.count(WEBHOOK, only)).toBe((await scan(pool, only)).length);
    await b.commit(late);
    // Some of them indexed by each relay, the rest still queued.
    await b.indexSome(5);
    await a.indexSome(5);

    for (const relay of [a, b]) {
      const expected = await scan(pool, only);
      const { ids, totals } = await everyPage(relay, only);
      expect(ids).toEqual(expected);
      expect(new Set(totals)).toEqual(new Set([expected.length]));
    }
    // A label and a time range beside the text, through the indexes and counted on.
    const since: DeliveryPageFilter = { q: 'TROMSØ', labels: ['Accepted'], from: t0 + 1_100 };
    await b.indexAll();
    expect(await a.log.count(WEBHOOK, since)).toBe((await scan(pool, since)).length);
    await b.commit(entries(50, t0 + 3_000));
    const { ids, totals } = await everyPage(a, since);
    expect(ids).toEqual(await scan(pool, since));
    expect(new Set(totals)).toEqual(new Set([ids.length]));
  });

  it('finds and counts an entry from its commit on, while it is still queued for the index', async () => {
    const { pool } = await postgres.database();
    const relay = relayOn(pool);
    const t0 = freshEpoch();
    await relay.commit(entries(100, t0));
    await relay.indexAll();
    const only: DeliveryPageFilter = { q: 'Tromsø' };
    const before = await relay.log.count(WEBHOOK, only);

    await relay.commit([accepted(WEBHOOK, t0 + 500, '{"city":"tromsø, queued"}')]);
    const page = await relay.log.page(WEBHOOK, PAGE, null, only);
    expect(page.items[0]!.id).toBe((await scan(pool, only))[0]);
    expect(await relay.log.count(WEBHOOK, only)).toBe(before + 1);
    await relay.indexAll();
    expect(await relay.log.count(WEBHOOK, only)).toBe(before + 1);
  });

  it('never counts an entry pruned or deleted by the other relay, however many arrive meanwhile', async () => {
    const { pool, openPool } = await postgres.database();
    const a = relayOn(pool);
    const b = relayOn(openPool());
    const now = freshEpoch();
    const only: DeliveryPageFilter = { q: 'tromsø' };
    // 200 entries past retention, 200 within it.
    await a.commit(entries(200, now - 10 * DAY_MS));
    await a.commit(entries(200, now - DAY_MS));
    await a.indexAll();
    expect(await a.log.count(WEBHOOK, only)).toBe((await scan(pool, only)).length);

    // b prunes the old day and as many new entries arrive: the webhook holds as many as before.
    const pruned = await createPostgresRetention(openPool()).prune(
      { days: 7, minPerWebhook: 0, dedupeWindowMs: DAY_MS },
      now,
    );
    expect(pruned).toBe(200);
    await b.commit(entries(200, now - DAY_MS / 2));
    await b.indexSome(5);
    expect(await a.log.count(WEBHOOK, only)).toBe((await scan(pool, only)).length);

    // The newest match deleted, once everything is indexed and the total kept again.
    await b.indexAll();
    expect(await a.log.count(WEBHOOK, only)).toBe((await scan(pool, only)).length);
    const [newest] = await scan(pool, only);
    await pool.query('DELETE FROM request_contexts WHERE delivery_id = $1', [newest]);
    await pool.query('DELETE FROM payloads WHERE delivery_id = $1', [newest]);
    await pool.query('DELETE FROM deliveries WHERE id = $1', [newest]);
    const expected = await scan(pool, only);
    expect(await a.log.count(WEBHOOK, only)).toBe(expected.length);
    const { ids, totals } = await everyPage(a, only);
    expect(ids).toEqual(expected);
    expect(new Set(totals)).toEqual(new Set([expected.length]));
  });

  it('keeps a total exact through hourly prunes, counting again only the hour each prune cut into', async () => {
    const { pool, openPool } = await postgres.database();
    const a = relayOn(pool);
    const b = relayOn(openPool());
    const retention = createPostgresRetention(openPool());
    const policy = { days: 7, minPerWebhook: 0, dedupeWindowMs: DAY_MS };
    const now = freshEpoch();
    const only: DeliveryPageFilter = { q: 'tromsø' };
    // Sixty hours of entries, ten minutes apart, the oldest five of them past retention soon.
    const t0 = now - 7 * DAY_MS - 5 * HOUR_MS;
    await a.commit(entries(360, t0, 10 * 60_000));
    await a.indexAll();
    expect(await a.log.count(WEBHOOK, only)).toBe((await scan(pool, only)).length);

    // Each prune cuts into an hour (or past several), while entries arrive through the other relay.
    for (const [i, later] of [0.5, 1.25, 1.45, 3.5].entries()) {
      expect(await retention.prune(policy, now + later * HOUR_MS)).toBeGreaterThan(0);
      await b.commit(entries(10, now + i * 60_000, 1_000));
      await b.indexSome(5);
      const expected = await scan(pool, only);
      expect(await a.log.count(WEBHOOK, only)).toBe(expected.length);
      expect(await a.log.count(WEBHOOK, { ...only, from: t0 + 8 * HOUR_MS })).toBe(
        (await scan(pool, { ...only, from: t0 + 8 * HOUR_MS })).length,
      );
    }

    // Entries never change once written; one changed behind the relays' backs, in an hour more
    // than a day of prunes leaves alone, shows that no prune's count reads the log whole again:
    // the next hours are counted apart one by one as the oldest go.
    await b.indexAll();
    expect(await a.log.count(WEBHOOK, only)).toBe((await scan(pool, only)).length);
    const late = (await scan(pool, { ...only, from: t0 + 55 * HOUR_MS })).at(-1)!;
    await pool.query(`UPDATE payloads SET body = '{"city":"Bergen"}' WHERE delivery_id = $1`, [
      late,
    ]);
    for (let later = 4.5; later < 30; later++) {
      expect(await retention.prune(policy, now + later * HOUR_MS)).toBeGreaterThan(0);
      expect(await a.log.count(WEBHOOK, only)).toBe((await scan(pool, only)).length + 1);
    }
  });

  it('finds an order number or a phrase with digits in any case, queued or indexed, and not one split apart', async () => {
    const { pool } = await postgres.database();
    const relay = relayOn(pool);
    const t0 = freshEpoch();
    const bodies = [
      '{"order":"ORDER_12345-A","city":"TROMSØ 2024"}',
      '{"order":"order_12345-b"}',
      '{"order":"order_123","n":45}',
      '{"note":"Ordre_12345-a, i Tromsø 2023"}',
    ];
    await relay.commit(bodies.map((body, i) => accepted(WEBHOOK, t0 + i, body)));
    const searches: Array<[string, number]> = [
      ['order_12345-a', 1],
      ['Order_12345', 2],
      ['TROMSØ 2024', 1],
      ['tromsø 202', 2],
      ['123","n":45', 1],
      ['12345-', 3],
      ['123 45', 0],
    ];
    await expectFound(pool, relay, searches);
  });

  it('finds a plain word in any case, through letters that fold into ASCII ones, and around bytes that are not UTF-8', async () => {
    const { pool } = await postgres.database();
    const relay = relayOn(pool);
    const t0 = freshEpoch();
    const bodies = [
      '{"unit":"\u212AELVIN","city":"TROMSØ"}', // the Kelvin sign, folded into `k`
      '{"unit":"kelvin","city":"Tromsø"}',
      '{"city":"\u0130STANBUL"}', // İ, folded into `i` and a combining dot
      '{"city":"Troms og Finnmark"}',
    ];
    const items = bodies.map((body, i) => accepted(WEBHOOK, t0 + i, body));
    const binary = accepted(WEBHOOK, t0 + bodies.length, '');
    if (binary.kind === 'accept') binary.item.body = Buffer.from([0x7b, 0xff, 0xfe, 0x00, 0x7d]);
    await relay.commit([...items, binary]);
    const searches: Array<[string, number]> = [
      ['KELVIN', 2],
      ['elvin', 2],
      ['TROMSØ', 2],
      ['troms', 3],
      ['stanbul', 1],
      ['\u0130stanbul', 1],
      ['kel', 2],
      ['finnmark', 1],
    ];
    await expectFound(pool, relay, searches);
  });

  it('starts from the total another relay saved, or it saved before a restart, and counts on exactly', async () => {
    const { pool, openPool } = await postgres.database();
    const a = relayOn(pool);
    const t0 = freshEpoch();
    const only: DeliveryPageFilter = { q: 'tromsø' };
    await a.commit(entries(300, t0));
    await a.indexAll();
    expect(await a.log.count(WEBHOOK, only)).toBe((await scan(pool, only)).length);
    // Saved under a digest: the search's text is not kept in the database (version 21).
    const saved = await pool.query<{ row: string }>(
      'SELECT search_totals::text AS row FROM search_totals',
    );
    expect(saved.rows).toHaveLength(1);
    expect(saved.rows[0]!.row).toMatch(/^\("?[0-9a-f]{64}"?,/);
    expect(saved.rows[0]!.row.toLowerCase()).not.toContain('troms');

    // Changed behind the relays' backs (a relay never changes an entry): a relay that counted the
    // log whole would see it; one that starts from the saved total does not.
    const [newest] = await scan(pool, only);
    await pool.query(`UPDATE payloads SET body = '{"city":"Bergen"}' WHERE delivery_id = $1`, [
      newest,
    ]);
    const b = relayOn(openPool());
    expect(await b.log.count(WEBHOOK, only)).toBe((await scan(pool, only)).length + 1);
    await b.commit(entries(50, t0 + 10_000));
    await b.indexAll();
    const restarted = relayOn(openPool());
    expect(await restarted.log.count(WEBHOOK, only)).toBe((await scan(pool, only)).length + 1);

    // An entry of the log's rest deleted: counted whole again, so exact again.
    const [last] = await scan(pool, only);
    for (const table of ['request_contexts', 'payloads']) {
      await pool.query(`DELETE FROM ${table} WHERE delivery_id = $1`, [last]);
    }
    await pool.query('DELETE FROM deliveries WHERE id = $1', [last]);
    expect(await relayOn(openPool()).log.count(WEBHOOK, only)).toBe(
      (await scan(pool, only)).length,
    );
  });

  it('forgets a saved total no relay used for a week, and ignores one it cannot read', async () => {
    const { pool } = await postgres.database();
    let now = freshEpoch();
    const saved = savedSearchTotals(pool, () => now);
    const total = { parts: new Map([[5, { hits: 2, entries: 3 }]]), span: spanFrom(5), upTo: 9 };
    await saved.save('old', total, true);
    expect(await saved.load('old')).toEqual(total);
    now += 8 * DAY_MS;
    await saved.save('new', total, true);
    expect(await saved.load('old')).toBeUndefined();
    expect(await saved.load('new')).toEqual(total);
    await pool.query(`UPDATE search_totals SET kept = '{"parts":"?"}'`);
    expect(await saved.load('new')).toBeUndefined();
  });

  it('counts exactly whether a first count tests the entries one by one or reads the indexes, its hits joined by a hash or looked up', async () => {
    const { pool } = await postgres.database();
    const relay = relayOn(pool);
    const t0 = freshEpoch();
    await relay.commit(entries(400, t0));
    await relay.indexAll();
    await relay.commit(entries(20, t0 + 1_000));
    // The planner's figure for the log's payloads, which the rule weighs a range against.
    await pool.query('ANALYZE payloads');
    // Limits for a small log: a range of more than 10 entries has its newest 20 tested first;
    // a common text over 40 of them is then counted row by row, over the whole log through the
    // indexes with its hits joined by a hash, and a rare one (a single payload) through the
    // indexes with each hit looked up.
    // No text's payloads scanned (the test below).
    const rule = { most: 10, probe: 20, hashedFrom: 50, scannedFrom: Infinity };
    const searches: DeliveryPageFilter[] = [
      { q: 'tromsø', from: t0 + 380 },
      { q: 'TROMSØ', labels: ['Accepted'], from: t0 + 360 },
      { q: 'tromsø', from: t0 },
      { q: 'Tromsø' },
      { q: 'Oslo', labels: ['Accepted'], from: t0 + 5 },
      { q: '"i":7}', from: t0 + 380 },
      { q: '"i":7}', from: t0 + 1_005 },
      { q: '"i":7}' },
    ];
    for (const only of searches) {
      const expected = (await scan(pool, only)).length;
      // Each a first count: no total saved by the one before.
      await pool.query('DELETE FROM search_totals');
      expect(await keptSearchTotals(pool, rule)(WEBHOOK, only)).toBe(expected);
      await pool.query('DELETE FROM search_totals');
      expect(await keptSearchTotals(pool)(WEBHOOK, only)).toBe(expected);
    }
  });

  /** Whether a first count of `q` scans every payload (postgresScanDialect), not its candidates. */
  const scansPayloads = async (pool: PgPool, rule: FirstCountRule, q: string): Promise<boolean> => {
    const how = await firstCountPlan(pool, rule)(WEBHOOK, { q });
    return how !== 'rows' && how.dialect.holds === postgresScanDialect.holds;
  };

  it('scans every payload for the first count of an ASCII text in most of them, and counts as the indexes do', async () => {
    const { pool } = await postgres.database();
    const relay = relayOn(pool);
    const t0 = freshEpoch();
    const bodies = [
      '{"event":"DEPLOY","env":"prod"}',
      '{"event":"deploy"}',
      '{"event":"Deploy-7","note":"deplo y"}',
      '{"unit":"\u212AELVIN"}', // the Kelvin sign, folded into `k`
      '{"unit":"kelvin"}',
      '{"city":"\u0130STANBUL"}', // İ, folded into `i` and a combining dot
      'SALE 50%_OFF\\now',
      'SALE 50xyOFFnow', // what `50%_off\now` would match as a LIKE pattern
      '{"pct":"5%"}',
      '{"a_b":1}',
      '{"axb":1}',
    ];
    const items = bodies.map((body, i) => accepted(WEBHOOK, t0 + i, body));
    // Bytes that are not UTF-8 around the text, and a NUL: never found.
    for (const [i, bytes] of [
      [0x44, 0x45, 0x50, 0x4c, 0x4f, 0x59, 0xff],
      [0x64, 0x65, 0x70, 0x6c, 0x6f, 0x79, 0x00],
    ].entries()) {
      const binary = accepted(WEBHOOK, t0 + bodies.length + i, '');
      if (binary.kind === 'accept') binary.item.body = Buffer.from(bytes);
      items.push(binary);
    }
    await relay.commit(items);
    await relay.indexAll();
    // One queued: its arm reads it as before.
    await relay.commit([accepted(WEBHOOK, t0 + 100, '{"event":"DePloY"}')]);
    await pool.query('ANALYZE payloads');
    // Every search through the indexes with its hits joined by a hash, and so, when it can be,
    // with every payload scanned.
    const everyScan = { most: 0, probe: 20, hashedFrom: 0, scannedFrom: 0 };
    const searches: Array<[string, number, boolean]> = [
      ['deploy', 4, true],
      ['DEPLOY', 4, true],
      ['"event":"deploy', 4, true],
      ['elv', 2, true],
      ['ELV', 2, true],
      ['stanbul', 1, true],
      ['50%_off\\now', 1, true],
      ['50%', 1, true],
      ['\\', 1, true],
      ['a_b', 1, true],
      ['deplo y', 1, true],
      // Each holds `k` or `i` (or folds into them): scanned, and the payloads with İ or the
      // Kelvin sign tested folded too.
      ['kelvin', 2, true],
      ['\u212Aelvin', 2, true],
      ['KELVIN"', 2, true],
      ['istanbul', 0, true],
      // Not ASCII: through the folded texts.
      ['\u0130stanbul', 1, false],
      ['Tromsø', 0, false],
    ];
    for (const [q, n, scanned] of searches) {
      expect(await scansPayloads(pool, everyScan, q), q).toBe(scanned);
      for (const rule of [everyScan, { ...everyScan, scannedFrom: Infinity }, undefined]) {
        await pool.query('DELETE FROM search_totals');
        expect(await keptSearchTotals(pool, rule)(WEBHOOK, { q }), q).toBe(n);
      }
    }

    // By the rule a relay keeps: a text in most payloads scanned, a rarer one not.
    await relay.commit(entries(400, t0 + 1_000));
    await relay.indexAll();
    await pool.query('ANALYZE payloads');
    const rule = { most: 10, probe: 20, hashedFrom: 50, scannedFrom: 1 / 2 };
    for (const [q, scanned] of [
      ['{"C', true],
      ['7}', false],
    ] as const) {
      expect(await scansPayloads(pool, rule, q), q).toBe(scanned);
      await pool.query('DELETE FROM search_totals');
      const expected = (await scan(pool, { q })).length;
      expect(await keptSearchTotals(pool, rule)(WEBHOOK, { q }), q).toBe(expected);
    }
  });

  /** Asks for the totals of `searches` all at once while every count waits on a lock: how many wait. */
  async function askedTogether(
    searches: DeliveryPageFilter[],
    atOnce: number,
    locked = 'delivery_counts',
  ) {
    const { pool, url } = await postgres.database();
    const relay = relayOn(pool);
    await relay.commit(entries(300, freshEpoch()));
    await relay.indexAll();
    const waitingOnLock = async (): Promise<number> =>
      Number(
        (
          await pool.query<{ n: string }>(
            `SELECT count(*) AS n FROM pg_stat_activity
             WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          )
        ).rows[0]!.n,
      );
    // Every count statement reads the webhook's entry counts: held here, a count waits for them.
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`LOCK TABLE ${locked} IN ACCESS EXCLUSIVE MODE`);
      const asks = searches.map((only) => relay.log.count(WEBHOOK, only));
      await waitFor(async () => (await waitingOnLock()) >= atOnce, 'the counts waiting');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await waitingOnLock()).toBe(atOnce);
      await holder.query('ROLLBACK');
      const expected = await Promise.all(
        searches.map(async (only) => (await scan(pool, only)).length),
      );
      expect(await Promise.all(asks)).toEqual(expected);
    } finally {
      await holder.end();
    }
  }

  it('counts a search once however many ask for it at once, and each answer is exact', async () => {
    await askedTogether(
      Array.from({ length: 8 }, () => ({ q: 'tromsø' })),
      1,
    );
  });

  it('counts three new searches at a time, the others waiting their turn, each answer exact', async () => {
    const texts = ['tromsø', 'TROMSØ', 'oslo', 'city', 'troms', 'romsø', '"i":1', 'slo"'];
    await askedTogether(
      texts.map((q) => ({ q })),
      3,
    );
  });

  it('probes new searches in their turns too: a storm holds three connections, not one each', async () => {
    // A first count's probe tests the newest payloads: held here, a probe waits for them.
    const texts = ['tromsø', 'TROMSØ', 'oslo', 'city', 'troms', 'romsø', '"i":1', 'slo"'];
    await askedTogether(
      texts.map((q) => ({ q })),
      3,
      'payloads',
    );
  });

  it("reads a searched page's payloads asked for together, each its own, and none for an unknown ID", async () => {
    const { pool } = await postgres.database();
    const relay = relayOn(pool);
    const t0 = freshEpoch();
    await relay.commit(entries(10, t0));
    const ids = (await relay.log.page(WEBHOOK, 10, null, {})).items
      .filter((d) => d.label === 'Accepted')
      .map((d) => d.id);
    const bodies = await Promise.all(
      [...ids, 'dlv_00000000000000000000000000', ids[0]!].map((id) => relay.log.payload(id)),
    );
    const { rows } = await pool.query<{ delivery_id: string; body: Buffer }>(
      'SELECT delivery_id, body FROM payloads',
    );
    const stored = new Map(rows.map((r) => [r.delivery_id, r.body.toString('utf8')]));
    expect(bodies.map((b) => b?.toString('utf8') ?? null)).toEqual([
      ...ids.map((id) => stored.get(id)),
      null,
      stored.get(ids[0]!),
    ]);
  });
});
