/**
 * A kept search total through hourly prunes, on a database held by pg-search-hold.ts: Tromsø's
 * first exact total, then after each of three prunes of the log's oldest half hour (as retention
 * prunes hourly at a week's scale), the next total, timed in-process. Each prune deletes rows:
 * run it on a held database once per build measured.
 *
 *   node --import tsx bench/scale/pg-prune-recount.ts <held.json>
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { createPostgresDeliveriesRepository } from '../../src/main/store/postgres/deliveries-repo.js';
import { openPostgresPool } from '../../src/main/store/postgres/pool.js';
import { createPostgresRetention } from '../../src/main/store/postgres/retention.js';
import { DAY_MS } from './ui-reads.js';

const file = process.argv[2];
if (!file) throw new Error('usage: pg-prune-recount.ts <held.json>');
const held = JSON.parse(readFileSync(file, 'utf8')) as { url: string; busyUid: string };
const pool = openPostgresPool(held.url);
// Totals an earlier run saved (schema version 20) would make its first counts counts on.
await pool.query('DELETE FROM search_totals');
const repo = createPostgresDeliveriesRepository(pool);
const retention = createPostgresRetention(pool);
const only = { q: 'Tromsø' };
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

const timedCount = async (what: string): Promise<void> => {
  const at = performance.now();
  const total = await repo.count(held.busyUid, only);
  console.log(
    `${what.padEnd(44)} ${String(total).padStart(8)} ${Math.round(performance.now() - at)
      .toString()
      .padStart(7)} ms`,
  );
};

console.log(`load average ${load()}`);
await timedCount('first total');
await timedCount('again (kept)');
for (let prune = 1; prune <= 3; prune++) {
  const { rows } = await pool.query<{ oldest: string }>(
    'SELECT min(received_at) AS oldest FROM deliveries',
  );
  const at = performance.now();
  const pruned = await retention.prune(
    { days: 7, minPerWebhook: 50, dedupeWindowMs: DAY_MS },
    Number(rows[0]!.oldest) + 7 * DAY_MS + 30 * 60_000,
  );
  console.log(`prune ${prune}: ${pruned} entries in ${Math.round(performance.now() - at)} ms`);
  await timedCount(`total after prune ${prune}`);
  await timedCount('again (kept)');
}
// Another relay, or this one restarted: nothing in memory, the total saved in the database.
const other = openPostgresPool(held.url);
{
  const at = performance.now();
  const total = await createPostgresDeliveriesRepository(other).count(held.busyUid, only);
  const ms = Math.round(performance.now() - at);
  console.log(
    `${'another relay (saved total)'.padEnd(44)} ${String(total).padStart(8)} ${String(ms).padStart(7)} ms`,
  );
}
await other.end();
console.log(`load average ${load()}`);
await pool.end();
