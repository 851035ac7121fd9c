/**
 * The delivery log at scale (issue 13): 100,000 stored deliveries, realistic JSON of 1–64 KB
 * (bench/search-payloads.ts), one webhook. Times are of the management API over HTTP, as the UI
 * asks: `GET /api/webhooks/:uid/deliveries` answers a page of 200 and the exact `total` together.
 *   baseline  the unfiltered first page (and total) of the same log
 *   measured  a search for a word in one payload, a word in thousands of payloads, and label +
 *             time filters. Target: first page and total < 300 ms.
 * Also: how fast the background indexer indexes (MB of payload per second) and what the index
 * weighs beside the payloads, and a search while 2,000 new entries still wait to be indexed.
 * Medians of several rounds. The accept path with and without the index is the ingress suite's.
 */
import { performance } from 'node:perf_hooks';
import { createDeliveriesRepository } from '../../src/main/store/sqlite/deliveries-repo.js';
import { createSearchIndex } from '../../src/main/store/sqlite/search-index.js';
import { seedLog } from '../../test/support/seed-log.js';
import { startBenchCore } from '../bench-core.js';
import { payloadSize, realisticPayload, SeededRandom } from '../search-payloads.js';
import type { BenchSuite } from './index.js';
import { sqliteDbOf } from '../../src/main/store/sqlite/sqlite-store.js';

const COUNT = 100_000;
const LATE = 2_000;
const ROUNDS = 7;
const PAGE = 200;
/** order_<n> for entry i; a 6-digit n, so `order_184213"` names one payload. */
const orderOf = (i: number): number => 100_000 + i;
const RARE_ENTRY = 84_213 - (84_213 % 5); // an Accepted one (labels cycle 3 Accepted, Duplicate, Rejected)

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
const ms = (value: number): string => `${value.toFixed(0)} ms`;
const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(0)} MB`;

type Page = { items: unknown[]; total: number };

async function run(): Promise<void> {
  const bench = await startBenchCore();
  const { core } = bench;
  try {
    const { webhook } = await bench.post<{ webhook: { uid: string } }>('/api/webhooks', {
      name: 'orders',
    });
    const random = new SeededRandom(8421);
    let payloadBytes = 0;
    const start = Date.now() - (COUNT + LATE) * 1000;
    const seeding = performance.now();
    seedLog(sqliteDbOf(core.store), webhook.uid, COUNT, {
      atOf: (i) => start + i * 1000,
      bodyOf: (i) => {
        const body = realisticPayload(random, payloadSize(random), orderOf(i));
        if (i % 5 < 3) payloadBytes += Buffer.byteLength(body);
        return body;
      },
    });
    const seededMs = performance.now() - seeding;

    const index = createSearchIndex(sqliteDbOf(core.store));
    const indexing = performance.now();
    while (index.pending() > 0) index.indexSome(5_000);
    const indexedMs = performance.now() - indexing;
    const sizes = sqliteDbOf(core.store)
      .prepare<[], { name: string; bytes: number }>(
        // The index has a file of its own (schema version 17), attached as `search`.
        `SELECT CASE WHEN name LIKE 'delivery_search%' THEN 'index' ELSE name END AS name,
                sum(pgsize) AS bytes
         FROM (SELECT name, pgsize FROM dbstat('main')
               UNION ALL SELECT name, pgsize FROM dbstat('search'))
         GROUP BY 1`,
      )
      .all();
    const sizeOf = (name: string): number => sizes.find((s) => s.name === name)?.bytes ?? 0;

    const url = (query: string): string =>
      `${core.adminUrl}/api/webhooks/${webhook.uid}/deliveries?limit=${PAGE}${query}`;
    const timed = async (query: string): Promise<{ ms: number; page: Page }> => {
      const started = performance.now();
      const response = await fetch(url(query), {
        headers: { authorization: `Bearer ${core.adminToken.value}` },
      });
      const page = (await response.json()) as Page;
      if (response.status !== 200) throw new Error(`${query}: ${JSON.stringify(page)}`);
      return { ms: performance.now() - started, page };
    };
    const lastHour = `&from=${Date.now() - (LATE + 3600) * 1000}`;
    const queries: Array<[string, string]> = [
      ['unfiltered first page (baseline)', ''],
      ['q = a word in 1 payload', `&q=order_${orderOf(RARE_ENTRY)}`],
      ['q = a word in thousands of payloads', '&q=Tromsø'],
      ['labels = Rejected (auth), last hour', `&labels=Rejected%20(auth)${lastHour}`],
      ['labels = Accepted,Duplicate (all 100,000)', '&labels=Accepted,Duplicate'],
      ['q + labels + last hour', `&q=sprocket&labels=Accepted${lastHour}`],
    ];
    const times = queries.map((): number[] => []);
    const totals = queries.map(() => 0);
    await timed(''); // warm-up: the first request prepares the statements
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, [, query]] of queries.entries()) {
        const { ms: took, page } = await timed(query);
        times[i]!.push(took);
        totals[i] = page.total;
      }
    }

    // 2,000 more arrive; a search answered before the indexer runs scans them directly.
    const late = seedLog(sqliteDbOf(core.store), webhook.uid, LATE, {
      atOf: (i) => start + (COUNT + i) * 1000,
      bodyOf: (i) => realisticPayload(random, payloadSize(random), 900_000 + i),
    });
    const repo = createDeliveriesRepository(sqliteDbOf(core.store));
    const pendingNow = index.pending();
    const scanning = performance.now();
    const lateHit = repo.page(webhook.uid, PAGE, null, { q: 'order_900002' });
    const lateTotal = repo.count(webhook.uid, { q: 'order_900002' });
    const scanMs = performance.now() - scanning;
    if (lateHit.items[0]?.id !== late[2] || lateTotal !== 1)
      throw new Error('a queued entry was not found');

    console.log(
      `${COUNT.toLocaleString('en-US')} deliveries seeded in ${ms(seededMs)}: ${mb(payloadBytes)} of payloads (${mb(sizeOf('payloads'))} on disk); ` +
        `indexed in ${ms(indexedMs)} (${(payloadBytes / 1e6 / (indexedMs / 1000)).toFixed(1)} MB/s); index ${mb(sizeOf('index'))} (${(sizeOf('index') / sizeOf('payloads')).toFixed(2)}× the payloads)`,
    );
    console.log(`GET …/deliveries?limit=${PAGE}&… (page and exact total), medians of ${ROUNDS}\n`);
    console.log('| query | total | baseline | measured | ratio | target |');
    console.log('| --- | --- | --- | --- | --- | --- |');
    const base = median(times[0]!);
    for (const [i, [name]] of queries.entries()) {
      const value = median(times[i]!);
      console.log(
        `| ${name} | ${totals[i]!.toLocaleString('en-US')} | ${ms(base)} | ${ms(value)} | ${(value / base).toFixed(2)} | < 300 ms |`,
      );
    }
    console.log(
      `\nq with ${pendingNow.toLocaleString('en-US')} entries still queued for the index: page + total in ${ms(scanMs)} (in-process, no HTTP)`,
    );
  } finally {
    await bench.stop();
  }
}

export const searchSuite: BenchSuite = { name: 'search (100,000 deliveries)', run };
