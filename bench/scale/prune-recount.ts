/**
 * A kept search total through hourly prunes on SQLite, on a copy of a scale seed
 * (`--reuse-seed`'s directory; never the kept seed itself: the prunes delete): Tromsø's first
 * exact total, then after each of three prunes of the log's oldest half hour (as retention prunes
 * hourly at a week's scale), the next total, timed in-process. pg-prune-recount.ts is its
 * PostgreSQL twin.
 *
 *   node --import tsx bench/scale/prune-recount.ts <copy of the seed's data dir>
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../../src/main/store/sqlite/db.js';
import { createDeliveriesRepository } from '../../src/main/store/sqlite/deliveries-repo.js';
import { createRetention } from '../../src/main/store/sqlite/retention.js';
import { DAY_MS } from './ui-reads.js';

const dir = process.argv[2];
if (!dir) throw new Error('usage: prune-recount.ts <copy of a seed data dir>');
const { busyUid } = JSON.parse(readFileSync(join(dir, 'seeded.json'), 'utf8')) as {
  busyUid: string;
};
const db = openDatabase(join(dir, 'hookport.sqlite'));
const repo = createDeliveriesRepository(db);
const retention = createRetention(db);
const only = { q: 'Tromsø' };
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

const timedCount = (what: string): void => {
  const at = performance.now();
  const total = repo.count(busyUid, only);
  const ms = Math.round(performance.now() - at);
  console.log(`${what.padEnd(44)} ${String(total).padStart(8)} ${String(ms).padStart(7)} ms`);
};

console.log(`load average ${load()}`);
timedCount('first total');
timedCount('again (kept)');
for (let prune = 1; prune <= 3; prune++) {
  const oldest = db.prepare('SELECT min(received_at) FROM deliveries').pluck().get() as number;
  const at = performance.now();
  const pruned = await retention.prune(
    { days: 7, minPerWebhook: 50, dedupeWindowMs: DAY_MS },
    oldest + 7 * DAY_MS + 30 * 60_000,
  );
  console.log(`prune ${prune}: ${pruned} entries in ${Math.round(performance.now() - at)} ms`);
  timedCount(`total after prune ${prune}`);
  timedCount('again (kept)');
}
console.log(`load average ${load()}`);
db.close();
