/**
 * A private PostgreSQL cluster holding the scale benchmark's week (pg-seed.ts), kept running
 * for measuring the log's searches by hand (pg-search-timing.ts, EXPLAIN in psql): prints the
 * database's URL and the busy webhook's uid into `<out>.json`, and stops the cluster on SIGINT
 * or SIGTERM.
 *
 *   node --import tsx bench/scale/pg-search-hold.ts <out.json> [--pg-entries 200000]
 *     [--busy-entries N] (the busy webhook's entries; default 60 % of the log)
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { startPostgresCluster } from '../../test/support/postgres-cluster.js';
import { webhooksOn } from '../suites/scale-postgres.js';
import { pgSeed } from './pg-seed.js';
import { arg, WEBHOOKS } from './suite-common.js';

const out = process.argv[2];
if (!out) throw new Error('usage: pg-search-hold.ts <out.json> [--pg-entries N]');
const entries = arg('pg-entries', 200_000);
const busy = arg('busy-entries', Math.round(entries * 0.6));
const cluster = await startPostgresCluster();
const stop = (): void => void cluster.stop().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
const url = await cluster.createDatabase();
const uids = await webhooksOn(url, randomBytes(32).toString('hex'));
const week = await pgSeed(
  url,
  { entries, mainShare: busy / entries, webhookUids: uids, days: 8, endAt: Date.now() },
  Math.round(entries * 0.05),
  (line) => console.log(line),
);
writeFileSync(
  out,
  JSON.stringify({ url, busyUid: uids[0], rareOrder: week.rareOrder, webhooks: WEBHOOKS }),
);
console.log(`held: ${url}`);
setInterval(() => undefined, 1 << 30);
