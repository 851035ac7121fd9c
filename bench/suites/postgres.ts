/**
 * Many relays on PostgreSQL (issue 16), relay level: HTTP on loopback, every server in a process
 * of its own, the load generator (autocannon, 50 connections, a unique X-Service-Delivery-Id per
 * request, provider-like JSON bodies) in another, on a private cluster with fsync and
 * synchronous_commit on (test/support/postgres-cluster.ts):
 *   (a)   bare node:http that reads the body and answers 202: the ceiling of this machine's HTTP;
 *   (s)   the SQLite relay (startCore on a data dir, as `hookport serve` runs by default);
 *   (n10) naive: node:http + JSON.parse + one PostgreSQL transaction per request writing the
 *         relay's rows in the relay's schema, on a pool of 10 (pg's default, the relay's pool);
 *   (n50) the same on a pool of 50 (a connection per request in flight);
 *   (p1)  one relay on PostgreSQL (`serve --database`); it indexes for search after the 202, as
 *         the SQLite relay does (migration 10): after each round, the time its indexer took to
 *         catch up is printed;
 *   (p2)  two relays on one PostgreSQL database, the connections split between them (their
 *         indexers share the queue; their catch-up is printed too);
 *   (p1-0) one relay on PostgreSQL without the log search (no GIN indexes, nothing queued, the
 *         indexer idle), to price it;
 *   (n10-0) the naive server without it: p1-0/n10-0 is the group commit's own gain.
 * The naive servers index their rows for search in the transaction that writes them (GIN), as a
 * server without a background indexer must; the relays index after the 202.
 * Limits raised as in the ingress suite (only benchmarks raise them). Each PostgreSQL path has a
 * database of its own, emptied before each of its rounds, so that no path pays for another's
 * rows. Target: p1/n10 ≥ 2.5 at 1 KB with p99 no worse than n10's.
 * Rounds interleaved, each row the median round (bench/ingress/rounds.ts: BENCH_SECONDS,
 * BENCH_WARMUP_SECONDS, BENCH_ROUNDS).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { postgresCpu, processesCpu } from '../ingress/cpu-time.js';
import {
  launcherEnv,
  launcherFlags,
  startServer,
  type ServerProcess,
} from '../ingress/processes.js';
import {
  CONNECTIONS,
  ROUNDS,
  SECONDS,
  WARMUP_SECONDS,
  check,
  formatRow,
  header,
  measure,
  ratio,
  reportInvalid,
  searchCatchUp,
  size,
  type Path,
  type Row,
} from '../ingress/rounds.js';
import { startPostgresCluster } from '../../test/support/postgres-cluster.js';
import type { BenchRelayInfo } from '../relay-server.js';
import type { BenchSuite } from './index.js';

const SMALL = 1024;
const LARGE = 64 * 1024;
const WIDTH = 34;
const TARGET = 2.5;
/** The relay's SQLite writer thread, bundled beside the relay as the shipped build has it. */
const RELAY_WRITER_THREAD = 'src/main/store/sqlite/writer-thread.ts';
const LOG_TABLES = 'deliveries, request_contexts, payloads, dedupe_keys';

/** Empties a database's log before each round of its path. */
async function emptied(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`TRUNCATE ${LOG_TABLES}`);
  } finally {
    await client.end();
  }
}

function versus(label: string, x: Row, y: Row, target?: number): string {
  const r = ratio(x, y);
  const goal =
    target === undefined
      ? ''
      : `  (target ≥ ${target}: ${check(r >= target)}; p99 ${check(x.result.p99 <= y.result.p99)})`;
  return `${label.padEnd(26)} ${r.toFixed(2)}×  p99 ${x.result.p99} vs ${y.result.p99} ms${goal}`;
}

/**
 * CPU per delivery, by process: on 2 cores shared by the load generator, the server and
 * PostgreSQL, a CPU-bound path's throughput follows from it. The ratio of two paths' totals is
 * the most p1/n10 can reach here while both are CPU-bound.
 */
function cpuTable(rows: Row[]): string {
  const lines = [
    "\nCPU per answered request, µs (the server process(es); the PostgreSQL backends of its database and the cluster's writers):",
  ];
  const us = (value: number | undefined): string =>
    (value === undefined ? '-' : value.toFixed(0)).padStart(5);
  for (const row of rows) {
    const cpu = row.cpuPerRequest;
    if (cpu?.server === undefined) continue;
    const total = cpu.server + (cpu.database ?? 0);
    lines.push(
      `  ${row.name.padEnd(WIDTH)} ${size(row.bodyBytes).padStart(6)}  server ${us(cpu.server)}  database ${us(cpu.database)}  total ${us(total)}`,
    );
  }
  return lines.join('\n');
}

async function run(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'hookport-bench-'));
  const dir = (name: string): string => {
    const path = join(work, name);
    mkdirSync(path);
    return path;
  };
  const cluster = await startPostgresCluster();
  const servers: Array<ServerProcess<unknown>> = [];
  const interrupted = (): void => {
    void Promise.all(servers.map((server) => server.stop()))
      .then(() => cluster.stop())
      .then(() => {
        rmSync(work, { recursive: true, force: true });
        process.exit(130);
      });
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    // Every relay on one database needs the same key; a fresh one per run.
    const masterKey = randomBytes(32).toString('hex');
    const relay = async (
      name: string,
      databaseUrl: string | null,
      options: string[] = [],
    ): Promise<ServerProcess<BenchRelayInfo>> => {
      const env: Record<string, string> = databaseUrl
        ? { HOOKPORT_DATABASE_URL: databaseUrl, HOOKPORT_MASTER_KEY: masterKey }
        : {};
      // The relay runs as `hookport` runs it: with its launcher's V8 flags and malloc setting.
      const server = await startServer<BenchRelayInfo>(
        'bench/relay-server.ts',
        [dir(name), 'raised', ...options],
        [RELAY_WRITER_THREAD],
        launcherFlags(),
        { ...launcherEnv(), ...env },
      );
      servers.push(server);
      return server;
    };
    const naive = async (
      databaseUrl: string,
      poolSize: number,
      options: string[] = [],
    ): Promise<ServerProcess<{ url: string }>> => {
      const server = await startServer<{ url: string }>(
        'bench/ingress/naive-postgres-server.ts',
        [String(poolSize), ...options],
        [],
        [],
        { HOOKPORT_DATABASE_URL: databaseUrl },
      );
      servers.push(server);
      return server;
    };
    const [n10Db, n50Db, p1Db, p2Db, p10Db, n100Db] = await Promise.all(
      Array.from({ length: 6 }, () => cluster.createDatabase()),
    );
    const bare = await startServer<{ url: string }>('bench/ingress/bare-server.ts');
    servers.push(bare);
    const sqlite = await relay('sqlite', null);
    const n10 = await naive(n10Db!, 10);
    const n50 = await naive(n50Db!, 50);
    const p1 = await relay('p1', p1Db!);
    const p2a = await relay('p2a', p2Db!);
    const p2b = await relay('p2b', p2Db!, ['join']);
    const p10 = await relay('p1-0', p10Db!, ['no-search']);
    const n100 = await naive(n100Db!, 10, ['no-search']);
    const auth = (info: BenchRelayInfo) => ({ authorization: `Bearer ${info.secret ?? ''}` });
    const catchUps: Array<{ entries: number; ms: number }> = [];
    const postgresCatchUps: Array<{ entries: number; ms: number }> = [];
    const pairCatchUps: Array<{ entries: number; ms: number }> = [];
    const postmaster = Number(
      readFileSync(join(cluster.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0],
    );
    const onPostgres = (databaseUrl: string, ...serving: Array<ServerProcess<unknown>>) => ({
      body: 'event' as const,
      expect: [202],
      before: () => emptied(databaseUrl),
      cpu: {
        server: () => processesCpu(serving.map((server) => server.child.pid!)),
        database: () => postgresCpu(postmaster, new URL(databaseUrl).pathname.slice(1)),
      },
    });
    const paths: Path[] = [
      { name: '(a) bare node:http', url: bare.info.url, headers: {}, body: 'event', expect: [202] },
      {
        name: '(s) SQLite relay',
        url: sqlite.info.webhookUrl,
        headers: auth(sqlite.info),
        body: 'event',
        expect: [202],
        cpu: { server: () => processesCpu([sqlite.child.pid!]) },
        // It indexes for search after the 202: let that finish before the next path runs.
        after: async () => void catchUps.push(await searchCatchUp(sqlite)),
      },
      {
        name: '(n10) naive PG, 1 tx/req, pool 10',
        url: n10.info.url,
        headers: {},
        ...onPostgres(n10Db!, n10),
      },
      {
        name: '(n50) naive PG, 1 tx/req, pool 50',
        url: n50.info.url,
        headers: {},
        ...onPostgres(n50Db!, n50),
      },
      {
        name: '(p1) 1 relay on PG',
        url: p1.info.webhookUrl,
        headers: auth(p1.info),
        ...onPostgres(p1Db!, p1),
        // Its indexer works after the 202 too: let it finish before the next path runs.
        after: async () => void postgresCatchUps.push(await searchCatchUp(p1)),
      },
      {
        name: '(p2) 2 relays on one PG',
        url: [p2a.info.webhookUrl, p2b.info.webhookUrl],
        headers: auth(p2a.info),
        ...onPostgres(p2Db!, p2a, p2b),
        // Their shared queue (either relay counts it): no path runs beside their indexing.
        after: async () => void pairCatchUps.push(await searchCatchUp(p2a)),
      },
      {
        name: '(p1-0) 1 relay, no search index',
        url: p10.info.webhookUrl,
        headers: auth(p10.info),
        ...onPostgres(p10Db!, p10),
      },
      {
        name: '(n10-0) naive PG, no search index',
        url: n100.info.url,
        headers: {},
        ...onPostgres(n100Db!, n100),
      },
    ];
    console.log(
      `${CONNECTIONS} connections; every row is the median of ${ROUNDS} interleaved rounds of ${SECONDS} s (after ${WARMUP_SECONDS} s of warm-up); latencies in ms\n`,
    );
    console.log(header(WIDTH));
    const small = await measure(paths, SMALL, true);
    for (const row of small) console.log(formatRow(row, WIDTH));
    const large = await measure(paths, LARGE, false);
    for (const row of large) console.log(formatRow(row, WIDTH));
    reportInvalid([...small, ...large]);

    console.log('');
    for (const [label, rows] of [
      ['1 KB', small],
      ['64 KB', large],
    ] as const) {
      const [ceiling, s, a10, a50, one, two, one0, naive0] = rows as [
        Row,
        Row,
        Row,
        Row,
        Row,
        Row,
        Row,
        Row,
      ];
      console.log(`at ${label}:`);
      console.log(versus('  p1 / n10', one, a10, label === '1 KB' ? TARGET : undefined));
      console.log(versus('  p1 / n50', one, a50));
      console.log(versus('  p2 / p1', two, one));
      console.log(versus('  p1 / s (PG vs SQLite)', one, s));
      console.log(versus('  p1 / p1-0 (the index)', one, one0));
      console.log(versus('  p1-0 / n10-0 (no index)', one0, naive0));
      console.log(versus('  p1 / a (HTTP ceiling)', one, ceiling));
    }
    console.log(cpuTable([...small, ...large]));
    const caughtUp = (runs: Array<{ entries: number; ms: number }>): string =>
      runs
        .map((c) => `${c.entries.toLocaleString('en-US')} entries in ${(c.ms / 1000).toFixed(1)} s`)
        .join('; ');
    console.log(`SQLite search index caught up after each (s) round: ${caughtUp(catchUps)}`);
    console.log(
      `PostgreSQL search index caught up after each (p1) round: ${caughtUp(postgresCatchUps)}`,
    );
    console.log(`… and after each (p2) round, two relays: ${caughtUp(pairCatchUps)}`);
    console.log('Other load on this machine skews every number.');

    mkdirSync('bench-output', { recursive: true });
    writeFileSync(
      join('bench-output', 'postgres.json'),
      JSON.stringify(
        {
          at: new Date().toISOString(),
          seconds: SECONDS,
          rounds: ROUNDS,
          connections: CONNECTIONS,
          rows: [...small, ...large],
        },
        null,
        2,
      ),
    );
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    await Promise.all(servers.map((server) => server.stop()));
    await cluster.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

export const postgresSuite: BenchSuite = { name: 'postgres', run };
