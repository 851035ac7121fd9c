/**
 * A kept search total through hourly prunes, on a database held by pg-search-hold.ts: Tromsø's
 * first exact total, then after each of three prunes of the log's oldest half hour (as retention
 * prunes hourly at a week's scale), the next total, timed in-process. Each prune deletes rows:
 * run it on a held database once per build measured.
 *
 *   node --import tsx bench/scale/pg-prune-recount.ts <held.json>
 */
import { readFileSync } from 'node:fs';
import { createPostgresDeliveriesRepository } from '../../src/main/store/postgres/deliveries-repo.js';
import { openPostgresPool } from '../../src/main/store/postgres/pool.js';
import { createPostgresRetention } from '../../src/main/store/postgres/retention.js';
import { prunesBesideTotals, timedTotal } from './prunes-beside-totals.js';

const file = process.argv[2];
if (!file) throw new Error('usage: pg-prune-recount.ts <held.json>');
const held = JSON.parse(readFileSync(file, 'utf8')) as { url: string; busyUid: string };
const pool = openPostgresPool(held.url);
// Totals an earlier run saved (schema version 20) would make its first count a count on.
await pool.query('DELETE FROM search_totals');
const only = { q: 'Tromsø' };
const repo = createPostgresDeliveriesRepository(pool);
const retention = createPostgresRetention(pool);
await prunesBesideTotals({
  total: () => repo.count(held.busyUid, only),
  oldest: async () =>
    Number(
      (await pool.query<{ t: string }>('SELECT min(received_at) AS t FROM deliveries')).rows[0]!.t,
    ),
  prune: (policy, now) => retention.prune(policy, now),
});
// Another relay, or this one restarted: nothing in memory, the total saved in the database.
const other = openPostgresPool(held.url);
await timedTotal('another relay (saved total)', () =>
  createPostgresDeliveriesRepository(other).count(held.busyUid, only),
);
await other.end();
await pool.end();
