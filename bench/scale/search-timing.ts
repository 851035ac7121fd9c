/**
 * The log's searches timed in-process on a copy of a scale seed (`--reuse-seed`'s directory),
 * without a relay around them: each search's first page (200, as the UI asks) and its exact
 * total, cold (first run) then warm (median of 3), in CPU (`process.cpuUsage`) and wall time,
 * with the entries the seed left queued for the index, and again once `--drain` has indexed them.
 * Never run it on the kept seed itself: it writes (the drain, and SQLite's own -shm/-wal).
 *
 *   node --import tsx bench/scale/search-timing.ts <copy of the seed's data dir> [--drain]
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../../src/main/store/sqlite/db.js';
import { createDeliveriesRepository } from '../../src/main/store/sqlite/deliveries-repo.js';
import { createSearchIndex } from '../../src/main/store/sqlite/search-index.js';
import type { DeliveryPageFilter } from '../../src/main/store/deliveries.js';
import { DAY_MS } from './ui-reads.js';

const dir = process.argv[2];
if (!dir) throw new Error('usage: search-timing.ts <copy of a seed data dir> [--drain]');
const { busyUid, rareOrder } = JSON.parse(readFileSync(join(dir, 'seeded.json'), 'utf8')) as {
  busyUid: string;
  rareOrder: number;
};
// As the relay opens it: migrated, its index file attached (schema version 17).
const db = openDatabase(join(dir, 'hookport.sqlite'));
const repo = createDeliveriesRepository(db);

if (process.argv.includes('--drain')) {
  const index = createSearchIndex(db);
  const started = performance.now();
  let indexed = 0;
  for (let run = index.indexSome(1_000); ; run = index.indexSome(1_000)) {
    indexed += run.indexed;
    if (!run.more && !run.deferred) break;
  }
  console.log(`drained ${indexed} queued entries in ${Math.round(performance.now() - started)} ms`);
}

const queued = (
  db.prepare('SELECT count(*) AS n FROM delivery_search_pending').get() as { n: number }
).n;
const newest = db
  .prepare('SELECT id FROM deliveries WHERE webhook_uid = ? ORDER BY id DESC LIMIT 1 OFFSET 300000')
  .pluck()
  .get(busyUid) as string;
const latest = db
  .prepare('SELECT max(received_at) FROM deliveries WHERE webhook_uid = ?')
  .pluck()
  .get(busyUid) as number;

const searches: Array<[string, DeliveryPageFilter]> = [
  ['q = a word in 1 payload', { q: `order_${rareOrder}` }],
  ['q = a word in many payloads (Tromsø)', { q: 'Tromsø' }],
  ['q = a delivery ID prefix', { q: newest.slice(0, 12) }],
  ['q = a whole delivery ID', { q: newest }],
  ['q + label + last 24 h', { q: 'sprocket', labels: ['Accepted'], from: latest - DAY_MS }],
  // Sixth pass: a common text in a range, and another common text after these (its first total in
  // a process whose statements are prepared, as in a relay that has served searches).
  ['q + a day 3 days ago', { q: 'Tromsø', from: latest - 4 * DAY_MS, to: latest - 3 * DAY_MS }],
  ['q = another common text (sprocket)', { q: 'sprocket' }],
];

function timed<T>(fn: () => T): { value: T; cpu: number; wall: number } {
  const cpu = process.cpuUsage();
  const at = performance.now();
  const value = fn();
  const used = process.cpuUsage(cpu);
  return { value, cpu: (used.user + used.system) / 1000, wall: performance.now() - at };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number): string => `${Math.round(x)}`.padStart(6);

console.log(
  `${queued} entries queued for the index; load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.log(
  'search'.padEnd(40),
  'total'.padStart(8),
  '  page cpu/wall cold',
  ' warm',
  '  total cpu/wall cold',
  ' warm',
);
const deep = db
  .prepare(
    'SELECT id FROM deliveries WHERE webhook_uid = ? AND received_at >= ? ORDER BY received_at LIMIT 1',
  )
  .pluck()
  .get(busyUid, latest - 4 * DAY_MS) as string;
for (const [name, only, before] of [
  ...searches.map(([n, o]) => [n, o, null] as const),
  ['q = Tromsø, a deep page (4 days back)', { q: 'Tromsø' }, deep] as const,
]) {
  const page = [0, 1, 2, 3].map(() => timed(() => repo.page(busyUid, 200, before, only)));
  const count = [0, 1, 2, 3].map(() => timed(() => repo.count(busyUid, only)));
  const warm = (runs: typeof page | typeof count, key: 'cpu' | 'wall'): number =>
    median(runs.slice(1).map((r) => r[key]));
  console.log(
    name.padEnd(40),
    `${count[0]!.value}`.padStart(8),
    `${ms(page[0]!.cpu)}/${ms(page[0]!.wall)}`,
    `${ms(warm(page, 'cpu'))}/${ms(warm(page, 'wall'))}`,
    `${ms(count[0]!.cpu)}/${ms(count[0]!.wall)}`,
    `${ms(warm(count, 'cpu'))}/${ms(warm(count, 'wall'))}`,
    `(${page[0]!.value.items.length} on the page)`,
  );
}
console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
db.close();
