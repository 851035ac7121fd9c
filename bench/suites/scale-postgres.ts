/**
 * The seed's own scale on PostgreSQL with two relays (issue 28): the scale suite's week
 * (bench/scale/seed-week.ts) written into a database of a private cluster (fsync on, as
 * test/support/postgres-cluster.ts runs it; as the `postgres` user when root), the log search's
 * indexes built for all but the newest 5 % (pg-seed.ts). Two relays are started on it, each with
 * a data dir of its own, and the paced genuine sender's deliveries (5 a second) alternate between
 * them, as a round-robin load balancer would send them; the same two relays and sender on an
 * empty database of the same cluster first, in the same run:
 *   baseline  the sender on the empty database: p50 / p99 / max
 *   measured  the same from the relays' first second on the week, while retention (one relay's,
 *             by the database's lease) prunes the oldest day and the indexers catch up.
 * Targets: p99 ≤ 2× the baseline, max < 250 ms; then every read the UI makes, on one relay
 * (< 300 ms each), and the database's size before and after retention.
 *   npm run bench -- scale --pg-entries 200000 --seconds 300
 * Default 200,000 entries (120,000 in the busy webhook): building the trigram GIN indexes for a
 * million took too long on the shared benchmark machine. `--prune-wait <s>` and `--busy-entries <n>`
 * (the busy webhook's share; default 60 %) as in the scale suite.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { startCore } from '../../src/main/core.js';
import { silentLogger } from '../../src/main/log.js';
import { startPostgresCluster } from '../../test/support/postgres-cluster.js';
import { startServer, type ServerProcess } from '../ingress/processes.js';
import { pacedSender } from '../scale/paced-sender.js';
import { checkpointsSince, logSlowStatements, slowStatementsBetween } from '../scale/pg-log.js';
import { pgSeed } from '../scale/pg-seed.js';
import type { ScaleRelayInfo } from '../scale/scale-relay.js';
import {
  ask,
  besideReads,
  besideRow,
  countStorm,
  loadAverage,
  ms,
  printReads,
  senderRow,
  stormRow,
  timeReads,
  uiReads,
} from '../scale/ui-reads.js';
import { arg, mb, RELAY, WEBHOOKS, WRITER_THREAD } from '../scale/suite-common.js';
import type { BenchSuite } from './index.js';

const PER_SECOND = 5;

async function databaseBytes(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ size: string }>(
      'SELECT pg_database_size(current_database()) AS size',
    );
    return Number(rows[0]!.size);
  } finally {
    await client.end();
  }
}

interface Pair {
  relays: Array<ServerProcess<ScaleRelayInfo>>;
  dirs: string[];
  /** From spawn to listening, each. */
  readyMs: number[];
}

/**
 * Two relays on one database: the first creates the sender's webhook, the second joins it.
 * `onLog` hears each one's `[retention]` and `[search]` lines from its start: the first relay's
 * prune may be done before the second is listening.
 */
async function startPair(
  databaseUrl: string,
  masterKey: string,
  onLog: (line: string) => void = () => undefined,
): Promise<Pair> {
  const env = { HOOKPORT_DATABASE_URL: databaseUrl, HOOKPORT_MASTER_KEY: masterKey };
  const pair: Pair = { relays: [], dirs: [], readyMs: [] };
  for (const join_ of [[], ['--join']]) {
    const dir = mkdtempSync(join(tmpdir(), 'hookport-scale-pg-relay-'));
    const started = performance.now();
    const relay = await startServer<ScaleRelayInfo>(
      RELAY,
      [dir, ...join_],
      [WRITER_THREAD],
      [],
      env,
    );
    relay.child.on('message', (message: { log?: string }) => {
      if (message.log) onLog(message.log);
    });
    pair.relays.push(relay);
    pair.readyMs.push(performance.now() - started);
    pair.dirs.push(dir);
  }
  return pair;
}

async function stopPair(pair: Pair): Promise<void> {
  await Promise.all(pair.relays.map((relay) => relay.stop()));
  for (const dir of pair.dirs) rmSync(dir, { recursive: true, force: true });
}

function send(pair: Pair, seconds: number) {
  return pacedSender({
    url: pair.relays.map((relay) => relay.info.senderUrl),
    secret: pair.relays[0]!.info.senderSecret,
    perSecond: PER_SECOND,
    seconds,
  });
}

/** The factory's webhooks, created as the UI would, on the week's database. */
export async function webhooksOn(databaseUrl: string, masterKey: string): Promise<string[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hookport-scale-pg-seed-'));
  const core = await startCore({
    dataDir,
    databaseUrl,
    ingress: { host: '127.0.0.1', port: 0 },
    admin: null,
    log: silentLogger,
    secretBackend: 'file',
    adminTokenFromEnv: undefined,
    masterKeyFromEnv: masterKey,
  });
  try {
    const uids: string[] = [];
    for (let i = 0; i < WEBHOOKS; i++) {
      const created = await core.service['webhooks.create'](
        { factory: 'default', name: i === 0 ? 'busy' : `w${i}`, authMode: 'token' },
        { role: 'manage' },
      );
      uids.push(created.webhook.uid);
    }
    return uids;
  } finally {
    await core.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** What PostgreSQL is asked to log of the relays' statements on the week (pg-log.ts). */
const SLOW_STATEMENT_MS = 100;

async function run(): Promise<void> {
  const entries = arg('pg-entries', 200_000);
  const seconds = arg('seconds', 300);
  const cluster = await startPostgresCluster();
  const masterKey = randomBytes(32).toString('hex');
  const loads: string[] = [];
  try {
    loads.push(`empty relays' start ${await loadAverage()}`);
    const empty = await startPair(await cluster.createDatabase(), masterKey);
    const quiet = await send(empty, seconds);
    const quietLoops = await Promise.all(
      empty.relays.map((relay) => ask<{ loopMaxMs: number }>(relay, 'loop')),
    );
    await stopPair(empty);

    const weekUrl = await cluster.createDatabase();
    const uids = await webhooksOn(weekUrl, masterKey);
    const leave = Math.round(entries * 0.05);
    const week = await pgSeed(
      weekUrl,
      {
        entries,
        mainShare: arg('busy-entries', entries * 0.6) / entries,
        webhookUids: uids,
        days: 8,
        endAt: Date.now(),
      },
      leave,
      (line) => console.log(`  ${line}`),
    );
    console.log(
      `Seeded ${entries.toLocaleString('en-US')} entries (${week.perWebhook[0]!.toLocaleString('en-US')} in the busy webhook) ` +
        `in ${ms(week.seededMs)}; the search indexes built (all but ${leave.toLocaleString('en-US')}) and analyzed in ${ms(week.indexedMs)}`,
    );
    const before = await databaseBytes(weekUrl);
    await logSlowStatements(weekUrl, SLOW_STATEMENT_MS);

    loads.push(`the week's start ${await loadAverage()}`);
    const seededAt = Date.now();
    const started = performance.now();
    let pruned = 0;
    let prunedAt: number | null = null;
    const relays = await startPair(weekUrl, masterKey, (line) => {
      const count = /^\[retention\] pruned (\d+)/.exec(line);
      if (!count) return console.log(`relay: ${line}`);
      prunedAt = performance.now() - started;
      pruned += Number(count[1]);
    });
    const [first] = relays.relays;
    const pendingAtStart = (await ask<{ pending: number }>(first!, 'pending')).pending;
    await Promise.all(relays.relays.map((relay) => ask(relay, 'loop')));
    const sendingAt = Date.now();
    const loaded = await send(relays, seconds);
    const sentUntil = Date.now();
    const loops = await Promise.all(
      relays.relays.map((relay) => ask<{ loopMaxMs: number; loopP99Ms: number }>(relay, 'loop')),
    );
    const pendingAfter = (await ask<{ pending: number }>(first!, 'pending')).pending;
    const pruneWaitMs = arg('prune-wait', 30 * 60) * 1000;
    while (prunedAt === null && performance.now() - started < pruneWaitMs) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    const after = await databaseBytes(weekUrl);
    loads.push(`the reads ${await loadAverage()}`);
    // The sender goes on beside the reads, to the relay that answers them.
    await ask(first!, 'loop');
    const beside = await besideReads(first!.info, () =>
      timeReads(first!.info, uiReads(uids[0]!, week.rareOrder)),
    );
    const loopReads = await ask<{ loopMaxMs: number; loopP99Ms: number }>(first!, 'loop');
    const timed = beside.reads;
    const storm = await besideReads(first!.info, () => countStorm(first!.info, uids[0]!));
    await stopPair(relays);

    console.log(
      `\nTwo relays on the week: listening ${relays.readyMs.map(ms).join(' and ')} from spawn; on the empty database ${empty.readyMs.map(ms).join(' and ')}`,
    );
    console.log(`Load average (1, 5, 15 min): ${loads.join('; ')}`);
    console.log(
      `Sender: ${PER_SECOND} deliveries/s for ${seconds} s, alternating between the two relays\n`,
    );
    console.log('| database | sent | answered | not 202 | p50 | p99 | max |');
    console.log('| --- | --- | --- | --- | --- | --- | --- |');
    console.log(senderRow('empty (baseline)', quiet));
    console.log(senderRow(`the week (${entries.toLocaleString('en-US')} entries)`, loaded));
    const slow = (r: typeof quiet): string =>
      r.slowest.map((s) => `${ms(s.ms)} at ${s.atS.toFixed(1)} s`).join(', ');
    console.log(`\nSlowest on the empty database: ${slow(quiet)}`);
    console.log(`Slowest on the week: ${slow(loaded)}`);
    console.log(
      `\np99 ratio ${(loaded.p99Ms / Math.max(quiet.p99Ms, 0.001)).toFixed(2)}× (target ≤ 2×); max ${ms(loaded.maxMs)} (target < 250 ms)`,
    );
    console.log(
      `Checkpoints since the seed (PostgreSQL's log; seconds from the week's sender start): ${checkpointsSince(cluster.log(), seededAt - 120_000, sendingAt)}`,
    );
    const slowStatements = slowStatementsBetween(cluster.log(), seededAt, sentUntil, sendingAt);
    console.log(
      `PostgreSQL's statements and lock waits over ${SLOW_STATEMENT_MS} ms from the relays' start to the sender's end (seconds from the sender's start; the slowest 25 statements, every lock wait):${slowStatements.length === 0 ? ' none' : ''}`,
    );
    for (const line of slowStatements) console.log(`  ${line}`);
    console.log(
      `Event loops, longest delay: empty ${quietLoops.map((l) => ms(l.loopMaxMs)).join(' / ')}, the week ${loops.map((l) => `${ms(l.loopMaxMs)} (p99 ${ms(l.loopP99Ms)})`).join(' / ')}`,
    );
    console.log(
      `Retention: ${prunedAt === null ? 'not finished' : `pruned ${pruned} deliveries (both relays' prunes), the last done ${(prunedAt / 1000).toFixed(0)} s after start`}`,
    );
    console.log(
      `Search catch-up (rows of both queues): ${pendingAtStart.toLocaleString('en-US')} queued at start, ${pendingAfter.toLocaleString('en-US')} after ${seconds} s`,
    );
    console.log(`Database: ${mb(before)} before, ${mb(after)} after retention\n`);
    printReads(timed);
    console.log(besideRow(beside.sender, loopReads));
    console.log(stormRow(storm.reads, storm.sender, quiet));
  } finally {
    await cluster.stop();
  }
}

export const scalePostgresSuite: BenchSuite = {
  name: 'scale on PostgreSQL (two relays, a week at the full rate)',
  run,
};
