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
import { join } from 'node:path';
import { openDatabase } from '../../src/main/store/sqlite/db.js';
import { createDeliveriesRepository } from '../../src/main/store/sqlite/deliveries-repo.js';
import { createRetention } from '../../src/main/store/sqlite/retention.js';
import { prunesBesideTotals } from './prunes-beside-totals.js';

const dir = process.argv[2];
if (!dir) throw new Error('usage: prune-recount.ts <copy of a seed data dir>');
const { busyUid } = JSON.parse(readFileSync(join(dir, 'seeded.json'), 'utf8')) as {
  busyUid: string;
};
const db = openDatabase(join(dir, 'hookport.sqlite'));
const repo = createDeliveriesRepository(db);
const retention = createRetention(db);
await prunesBesideTotals({
  total: () => repo.count(busyUid, { q: 'Tromsø' }),
  oldest: () => db.prepare('SELECT min(received_at) FROM deliveries').pluck().get() as number,
  prune: (policy, now) => retention.prune(policy, now),
});
db.close();
