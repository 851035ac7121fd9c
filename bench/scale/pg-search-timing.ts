/**
 * The log's searches timed in-process on PostgreSQL, on a database held by pg-search-hold.ts:
 * each search's first page (200, as the UI asks) and its exact total, the first run then the
 * median of 3 more, wall time (the work is the server's). `--drain` first indexes every queued
 * row with the relays' own indexer; `--migrate` applies the schema versions the database lacks.
 *
 *   node --import tsx bench/scale/pg-search-timing.ts <held.json> [--migrate] [--drain]
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { DeliveryPageFilter } from '../../src/main/store/deliveries.js';
import { createPostgresDeliveriesRepository } from '../../src/main/store/postgres/deliveries-repo.js';
import { migratePostgres } from '../../src/main/store/postgres/migrate.js';
import { openPostgresPool } from '../../src/main/store/postgres/pool.js';
import { createPostgresSearchIndex } from '../../src/main/store/postgres/search-index.js';
import { DAY_MS } from './ui-reads.js';

const file = process.argv[2];
if (!file) throw new Error('usage: pg-search-timing.ts <held.json> [--migrate] [--drain]');
const held = JSON.parse(readFileSync(file, 'utf8')) as {
  url: string;
  busyUid: string;
  rareOrder: number;
};
const pool = openPostgresPool(held.url);
if (process.argv.includes('--migrate')) await migratePostgres(pool);
if (process.argv.includes('--drain')) {
  const index = createPostgresSearchIndex(pool);
  const started = performance.now();
  let indexed = 0;
  for (let run = await index.indexSome(1_000); ; run = await index.indexSome(1_000)) {
    indexed += run.indexed;
    if (!run.more) break;
  }
  console.log(`drained ${indexed} queued rows in ${Math.round(performance.now() - started)} ms`);
}
// Totals an earlier run saved (schema version 20) would make its first counts counts on.
await pool.query('DELETE FROM search_totals');
const repo = createPostgresDeliveriesRepository(pool);
const one = async <T>(sql: string, params: unknown[]): Promise<T> =>
  Object.values((await pool.query(sql, params)).rows[0] as object)[0] as T;
const uid = held.busyUid;
const queued = await one<string>('SELECT count(*) FROM deliveries WHERE NOT indexed', []);
const newest = await one<string>(
  'SELECT id FROM deliveries WHERE webhook_uid = $1 ORDER BY id DESC LIMIT 1 OFFSET 30000',
  [uid],
);
const latest = Number(
  await one<string>('SELECT max(received_at) FROM deliveries WHERE webhook_uid = $1', [uid]),
);
const deep = await one<string>(
  'SELECT id FROM deliveries WHERE webhook_uid = $1 AND received_at >= $2 ORDER BY received_at LIMIT 1',
  [uid, latest - 4 * DAY_MS],
);

const searches: Array<[string, DeliveryPageFilter, string | null]> = [
  ['q = a word in 1 payload', { q: `order_${held.rareOrder}` }, null],
  ['q = a word in none, letters only', { q: 'Velocipede' }, null],
  ['q = a word in many payloads (Tromsø)', { q: 'Tromsø' }, null],
  ['q = a delivery ID prefix', { q: newest.slice(0, 12) }, null],
  ['q = a whole delivery ID', { q: newest }, null],
  ['q + label + last 24 h', { q: 'sprocket', labels: ['Accepted'], from: latest - DAY_MS }, null],
  [
    'q + a day 3 days ago',
    { q: 'Tromsø', from: latest - 4 * DAY_MS, to: latest - 3 * DAY_MS },
    null,
  ],
  ['q = another common text (sprocket)', { q: 'sprocket' }, null],
  ['q = Tromsø, a deep page (4 days back)', { q: 'Tromsø' }, deep],
];

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const at = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - at };
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number): string => `${Math.round(x)}`.padStart(6);
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

console.log(`${queued} entries queued for the index; load average ${load()}`);
console.log('search'.padEnd(40), 'total'.padStart(8), '  page first/again', ' total first/again');
for (const [name, only, before] of searches) {
  const page: Array<Awaited<ReturnType<typeof timed<Awaited<ReturnType<typeof repo.page>>>>>> = [];
  for (let i = 0; i < 4; i++) page.push(await timed(() => repo.page(uid, 200, before, only)));
  const count: Array<{ value: number; ms: number }> = [];
  for (let i = 0; i < 4; i++) count.push(await timed(() => repo.count(uid, only)));
  const again = (runs: Array<{ ms: number }>): number => median(runs.slice(1).map((r) => r.ms));
  console.log(
    name.padEnd(40),
    `${count[0]!.value}`.padStart(8),
    `${ms(page[0]!.ms)}/${ms(again(page))}`,
    `${ms(count[0]!.ms)}/${ms(again(count))}`,
    `(${page[0]!.value.items.length} on the page)`,
  );
}
console.log(`load average ${load()}`);
await pool.end();
