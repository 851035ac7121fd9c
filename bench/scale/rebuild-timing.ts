/**
 * Searches timed while a migrated relay rebuilds its index file (migration 017), in-process.
 *
 *   node --import tsx bench/scale/rebuild-timing.ts seed <dir> [--entries 100000] [--queued 5000]
 *   node --import tsx bench/scale/rebuild-timing.ts time <copy of the seed's dir> [--to 0.2]
 *
 * `seed`: a relay file as version 16 left it, its old in-file index built for all but the newest
 * `--queued` entries (the restart's queue), merged as the relay's indexer leaves it once quiet.
 * `time`: opens a copy (migrating it to the current version), times the searches at once, then
 * indexes in the idle pacing's 5 ms slices until the rebuild has passed `--to` of the old index's
 * entries and times them again, with the entries still queued then. Never run it on the seed itself.
 */
import Database from 'better-sqlite3';
import { writeFileSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { schemaVersions } from '../../src/main/store/schema-versions.js';
import { openDatabase } from '../../src/main/store/sqlite/db.js';
import { createDeliveriesRepository } from '../../src/main/store/sqlite/deliveries-repo.js';
import { runMigrations } from '../../src/main/store/sqlite/migrate.js';
import { createSearchIndex, indexRows } from '../../src/main/store/sqlite/search-index.js';
import type { DeliveryPageFilter } from '../../src/main/store/deliveries.js';
import { seedWeek } from './seed-week.js';
import { DAY_MS } from './ui-reads.js';

const [mode, dir] = process.argv.slice(2);
const arg = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
if ((mode !== 'seed' && mode !== 'time') || !dir) throw new Error('usage: see the file');
const file = join(dir, 'hookport.sqlite');
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

if (mode === 'seed') {
  const entries = arg('--entries', 100_000);
  const queued = arg('--queued', 5_000);
  const db = new Database(file);
  runMigrations(
    db,
    schemaVersions.filter((v) => v.version < 17),
  );
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  const busyUid = 'wh_busy';
  const week = seedWeek(db, {
    entries,
    mainShare: 0.6,
    webhookUids: [busyUid, 'wh_second', 'wh_third'],
    days: 8,
    endAt: Date.now(),
    chunk: 50_000,
  });
  const last = entries - queued;
  const started = performance.now();
  db.transaction(() => {
    db.prepare(`${indexRows('main')} WHERE d.rowid <= ?`).run(last);
    db.prepare('DELETE FROM delivery_search_pending WHERE delivery_rowid <= ?').run(last);
  })();
  const merge = db.prepare(
    "INSERT INTO delivery_search (delivery_search, rank) VALUES ('merge', 2000)",
  );
  const changes = db.prepare<[], number>('SELECT total_changes()').pluck();
  for (let before = -1; changes.get()! - before > 1;) {
    before = changes.get()!;
    merge.run();
  }
  db.pragma('journal_mode = WAL');
  db.close();
  writeFileSync(join(dir, 'seeded.json'), JSON.stringify({ busyUid, rareOrder: week.rareOrder }));
  console.log(
    `seeded ${entries} entries, ${queued} queued; old index in ${Math.round(performance.now() - started)} ms`,
  );
  process.exit(0);
}

const { busyUid, rareOrder } = JSON.parse(readFileSync(join(dir, 'seeded.json'), 'utf8')) as {
  busyUid: string;
  rareOrder: number;
};
const db = openDatabase(file);
const repo = createDeliveriesRepository(db);
const index = createSearchIndex(db);
const value = (sql: string): number => db.prepare<[], number>(sql).pluck().get()!;
const latest = value(`SELECT max(received_at) FROM deliveries WHERE webhook_uid = '${busyUid}'`);
const newest = db
  .prepare<[string], string>(
    'SELECT id FROM deliveries WHERE webhook_uid = ? ORDER BY id DESC LIMIT 1 OFFSET 30000',
  )
  .pluck()
  .get(busyUid)!;
const searches: Array<[string, DeliveryPageFilter]> = [
  ['a word in 1 payload', { q: `order_${rareOrder}` }],
  ['a word in many payloads (Tromsø)', { q: 'Tromsø' }],
  ['a delivery ID prefix', { q: newest.slice(0, 12) }],
  ['q + label + last 24 h', { q: 'sprocket', labels: ['Accepted'], from: latest - DAY_MS }],
  ['q + a day 3 days ago', { q: 'Tromsø', from: latest - 4 * DAY_MS, to: latest - 3 * DAY_MS }],
  ['another common text (sprocket)', { q: 'sprocket' }],
];

const cpuOf = (fn: () => unknown): number => {
  const before = process.cpuUsage();
  fn();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
};
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fixed = (x: number): string => x.toFixed(1).padStart(7);

function timeSearches(label: string): void {
  const queued = value('SELECT count(*) FROM delivery_search_pending');
  const rebuilt = value('SELECT upto FROM search.delivery_search_rebuilt');
  console.log(`\n${label}: ${queued} queued, rebuilt up to ${rebuilt}; load ${load()}`);
  console.log(
    'search'.padEnd(34),
    'total'.padStart(7),
    ' page cold/warm',
    ' total cold/warm (ms CPU)',
  );
  for (const [name, only] of searches) {
    const page = [0, 1, 2, 3].map(() => cpuOf(() => repo.page(busyUid, 200, null, only)));
    const count = [0, 1, 2, 3].map(() => cpuOf(() => repo.count(busyUid, only)));
    console.log(
      name.padEnd(34),
      `${repo.count(busyUid, only)}`.padStart(7),
      fixed(page[0]!),
      fixed(median(page.slice(1))),
      fixed(count[0]!),
      fixed(median(count.slice(1))),
    );
  }
}

timeSearches('at the start');
const legacy = value('SELECT upto FROM delivery_search_legacy');
const target = Math.floor(legacy * arg('--to', 0.2));
const started = performance.now();
let slices = 0;
let queueEmptyAt: number | null = null;
while (value('SELECT upto FROM search.delivery_search_rebuilt') < target) {
  index.indexSome(5);
  slices++;
  if (queueEmptyAt === null && value('SELECT count(*) FROM delivery_search_pending') === 0)
    queueEmptyAt = performance.now() - started;
}
console.log(
  `\nindexed to ${target} in ${slices} slices, ${Math.round(performance.now() - started)} ms;`,
  `queue empty after ${queueEmptyAt === null ? '–' : `${Math.round(queueEmptyAt)} ms`}`,
);
timeSearches(`during the rebuild (${arg('--to', 0.2) * 100} %)`);
index.close();
db.close();
