/**
 * Each statement of one search's first page and first exact total on a database held by
 * pg-search-hold.ts, shown with its plan (`EXPLAIN (ANALYZE, BUFFERS)`, run just before the
 * statement itself, so the statement's own time is of a warmed cache).
 *
 *   node --import tsx bench/scale/pg-search-explain.ts <held.json> <rare|tromso|label24h|sprocket>
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { DeliveryPageFilter } from '../../src/main/store/deliveries.js';
import type { Queryable } from '../../src/main/store/postgres/client.js';
import { createPostgresDeliveriesRepository } from '../../src/main/store/postgres/deliveries-repo.js';
import { openPostgresPool } from '../../src/main/store/postgres/pool.js';
import { DAY_MS } from './ui-reads.js';

const [file, which] = process.argv.slice(2);
if (!file || !which) throw new Error('usage: pg-search-explain.ts <held.json> <search>');
const held = JSON.parse(readFileSync(file, 'utf8')) as {
  url: string;
  busyUid: string;
  rareOrder: number;
};
const pool = openPostgresPool(held.url, { max: 1 });
const latest = Number(
  (
    await pool.query<{ t: string }>(
      'SELECT max(received_at) AS t FROM deliveries WHERE webhook_uid = $1',
      [held.busyUid],
    )
  ).rows[0]!.t,
);
const searches: Record<string, DeliveryPageFilter> = {
  rare: { q: `order_${held.rareOrder}` },
  tromso: { q: 'Tromsø' },
  sprocket: { q: 'sprocket' },
  label24h: { q: 'sprocket', labels: ['Accepted'], from: latest - DAY_MS },
};
const only = searches[which];
if (!only) throw new Error(`no search ${which}`);

const explained: Queryable = {
  query: (async (sql: string, params: unknown[]) => {
    const plan = await pool.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, BUFFERS) ${sql}`,
      params,
    );
    console.log(`\n--- ${sql.replace(/\s+/g, ' ').slice(0, 400)}`);
    console.log(plan.rows.map((r) => r['QUERY PLAN']).join('\n'));
    return pool.query(sql, params);
  }) as Queryable['query'],
};
const repo = createPostgresDeliveriesRepository(explained);
console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
await repo.page(held.busyUid, 200, null, only);
console.log(`total ${await repo.count(held.busyUid, only)}`);
await pool.end();
