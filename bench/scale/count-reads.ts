/**
 * The log's counting reads timed in-process on a copy of a seeded relay's data dir (issue 28
 * item 2): a webhook's exact total (whole, by label, a day's range, a deep page's), a factory's
 * activity and a webhook's volume, each twice in a fresh process (the first read finds SQLite's
 * page cache empty), wall clock and CPU (`process.cpuUsage`). `--root` picks the source tree
 * whose store code reads (another worktree's, for a "before"); `--migrate` first brings the file
 * to that tree's newest schema and times it (version 15 back-fills the counts). Writes into the
 * file only with `--migrate`: never point it at a seed you keep.
 *   node --import tsx bench/scale/count-reads.ts <data-dir copy> [--root <repo>] [--migrate]
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Db } from '../../src/main/store/sqlite/db.js';
import type { DeliveriesRepository } from '../../src/main/store/deliveries.js';
import type { Sync } from '../../src/main/store/store.js';

const args = process.argv.slice(2);
const dataDir = args[0];
if (!dataDir) throw new Error('usage: count-reads.ts <data-dir copy> [--root <repo>] [--migrate]');
const rootAt = args.indexOf('--root');
const root = resolve(rootAt >= 0 ? args[rootAt + 1]! : '.');
const { busyUid } = JSON.parse(readFileSync(join(dataDir, 'seeded.json'), 'utf8')) as {
  busyUid: string;
};

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const dbModule = (await import(join(root, 'src/main/store/sqlite/db.ts'))) as {
  openConnection: (file: string) => Db;
};
const repoModule = (await import(join(root, 'src/main/store/sqlite/deliveries-repo.ts'))) as {
  createDeliveriesRepository: (db: Db) => Sync<DeliveriesRepository>;
};
const db = dbModule.openConnection(join(dataDir, 'hookport.sqlite'));

function timed<T>(what: string, read: () => T): T {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = read();
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  const shown = typeof value === 'number' ? value.toLocaleString('en-US') : '';
  console.log(`| ${what} | ${shown} | ${wall.toFixed(0)} ms | ${cpuMs.toFixed(0)} ms |`);
  return value;
}

if (args.includes('--migrate')) {
  const { runMigrations } = (await import(join(root, 'src/main/store/sqlite/migrate.ts'))) as {
    runMigrations: (db: Db) => void;
  };
  timed('migrations (version 15 back-fills the counts)', () => runMigrations(db));
}

const deliveries = repoModule.createDeliveriesRepository(db);
const factory = db
  .prepare<[string], { factory_id: string }>('SELECT factory_id FROM webhooks WHERE uid = ?')
  .get(busyUid)!.factory_id;
const now = Date.now();
const hourAligned = (at: number, bucket: number): number => Math.floor(at / bucket) * bucket;
const reads: Array<[string, () => unknown]> = [
  ['exact total (busy webhook)', () => deliveries.count(busyUid, {})],
  [
    'total, labels = Rejected (auth)',
    () => deliveries.count(busyUid, { labels: ['Rejected (auth)'] }),
  ],
  [
    'total, labels = Accepted,Duplicate',
    () => deliveries.count(busyUid, { labels: ['Accepted', 'Duplicate'] }),
  ],
  ['total, the last 24 h', () => deliveries.count(busyUid, { from: now - DAY })],
  [
    'total, a day 3 days ago',
    () => deliveries.count(busyUid, { from: now - 4 * DAY + 1234, to: now - 3 * DAY + 5678 }),
  ],
  [
    'activity (24 h, the factory)',
    () => deliveries.activitySince(factory, hourAligned(now, HOUR) - 23 * HOUR).length,
  ],
  [
    'volume 24 h',
    () => deliveries.volumeSince(busyUid, hourAligned(now, HOUR) - 23 * HOUR, HOUR).length,
  ],
  [
    'volume 7 d',
    () =>
      deliveries.volumeSince(busyUid, hourAligned(now, 4 * HOUR) - 41 * 4 * HOUR, 4 * HOUR).length,
  ],
];
console.log(
  `root ${root}; load average ${(await import('node:os'))
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(', ')}`,
);
console.log('| read | total / rows | wall | CPU |\n| --- | --- | --- | --- |');
for (const pass of ['first', 'again']) {
  for (const [what, read] of reads) timed(`${what} (${pass})`, read);
}
db.close();
