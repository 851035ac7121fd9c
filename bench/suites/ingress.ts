/**
 * Ingress throughput on loopback (issue 2), every server in a process of its own and the load
 * generator (autocannon, 50 connections, a unique X-Service-Delivery-Id per request) in another:
 *   (a) bare node:http that reads the body and answers 202 — the floor of what HTTP costs;
 *   (b) naive: node:http + JSON.parse + one synchronous=FULL SQLite transaction per request;
 *   (c) the relay's accept path (startCore, limits raised — only benchmarks raise them);
 *   (d) the relay's 404 (unknown webhook) and 429 (delivery rate spent) paths.
 * Targets: c/b ≥ 2.5 at 1 KB with p99 no worse than (b)'s; d/a ≥ 0.7; relay RSS < 200 MB.
 * All servers run side by side and the 1 KB measurements are interleaved in rounds (a, b, c, d,
 * a, b, …), each row the median round: measured one after the other, a server measured later
 * ran on a warmer machine and JIT, which moved the ratios by a third between runs.
 * BENCH_SECONDS (default 5), BENCH_WARMUP_SECONDS (default 2, before the first round only) and
 * BENCH_ROUNDS (default 3) set the run lengths.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadResult } from '../ingress/load-generator.js';
import { runLoad, startServer, type ServerProcess } from '../ingress/processes.js';
import type { BenchRelayInfo } from '../relay-server.js';
import type { BenchSuite } from './index.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 50;
const SMALL = 1024;
/** The relay's SQLite writer thread, bundled beside the relay as the shipped build has it. */
const RELAY_WRITER_THREAD = 'src/main/store/writer-thread.ts';
const LARGE = 64 * 1024;

interface Row {
  name: string;
  bodyBytes: number;
  result: LoadResult;
}

let runs = 0;

/** One load run; `warm` runs the warm-up first (the first round of each server only). */
async function load(
  name: string,
  url: string,
  bodyBytes: number,
  headers: Record<string, string>,
  warm: boolean,
): Promise<Row> {
  const base = { url, bodyBytes, connections: CONNECTIONS, headers };
  const prefix = `${name.replace(/\W+/g, '-')}-${Date.now()}-${++runs}`;
  if (warm && WARMUP_SECONDS > 0)
    await runLoad({ ...base, seconds: WARMUP_SECONDS, idPrefix: `${prefix}-warm` });
  return {
    name,
    bodyBytes,
    result: await runLoad({ ...base, seconds: SECONDS, idPrefix: prefix }),
  };
}

/** The round with the median throughput: one disturbed round moves neither the row nor a ratio. */
function medianRow(rows: Row[]): Row {
  const sorted = [...rows].sort((x, y) => x.result.requestsPerSecond - y.result.requestsPerSecond);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const size = (bytes: number): string => (bytes >= 1024 ? `${bytes / 1024} KB` : `${bytes} B`);
const statuses = (result: LoadResult): string =>
  Object.entries(result.statuses)
    .map(([status, count]) => `${status}×${count}`)
    .join(' ') + (result.errors > 0 ? ` errors×${result.errors}` : '');

function formatRow({ name, bodyBytes, result }: Row): string {
  return [
    name.padEnd(28),
    size(bodyBytes).padStart(6),
    Math.round(result.requestsPerSecond).toLocaleString('en-US').padStart(9),
    String(result.p50).padStart(7),
    String(result.p99).padStart(7),
    `  ${statuses(result)}`,
  ].join(' ');
}

/**
 * Spends the webhook's 60-a-minute delivery budget so that every request after it gets 429;
 * again before each round, as the window frees up a minute later.
 */
async function spendDeliveryRate(info: BenchRelayInfo): Promise<void> {
  for (let i = 0; i < 61; i++) {
    const response = await fetch(info.webhookUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${info.secret}`, 'x-service-delivery-id': `prefill-${i}` },
      body: '{}',
    });
    if (response.status === 429) return;
    if (response.status !== 202) throw new Error(`prefill got ${response.status}`);
  }
  throw new Error('the delivery rate limit never answered 429');
}

async function run(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'hookport-bench-'));
  const dir = (name: string): string => {
    const path = join(work, name);
    mkdirSync(path);
    return path;
  };
  console.log(
    `${CONNECTIONS} connections; 1 KB rows are the median of ${ROUNDS} interleaved rounds of ${SECONDS} s (after ${WARMUP_SECONDS} s of warm-up); latencies in ms\n`,
  );
  console.log(
    `${'server'.padEnd(28)} ${'body'.padStart(6)} ${'req/s'.padStart(9)} ${'p50'.padStart(7)} ${'p99'.padStart(7)}   statuses`,
  );
  const servers: Array<ServerProcess<unknown>> = [];
  const started = async <T>(
    script: string,
    args: string[] = [],
    threads: string[] = [],
  ): Promise<ServerProcess<T>> => {
    const server = await startServer<T>(script, args, threads);
    servers.push(server);
    return server;
  };
  try {
    const bare = await started<{ url: string }>('bench/ingress/bare-server.ts');
    const naive = await started<{ url: string }>('bench/ingress/naive-server.ts', [dir('naive')]);
    const relay = await started<BenchRelayInfo>(
      'bench/relay-server.ts',
      [dir('relay'), 'raised'],
      [RELAY_WRITER_THREAD],
    );
    const limited = await started<BenchRelayInfo>(
      'bench/relay-server.ts',
      [dir('relay-default'), 'default'],
      [RELAY_WRITER_THREAD],
    );
    const auth = (info: BenchRelayInfo) => ({ authorization: `Bearer ${info.secret}` });
    const paths: Array<[string, string, Record<string, string>]> = [
      ['(a) bare node:http', bare.info.url, {}],
      ['(b) naive, 1 tx/request', naive.info.url, {}],
      ['(c) relay accept', relay.info.webhookUrl, auth(relay.info)],
      ['(d) relay 404 unknown', relay.info.unknownWebhookUrl, {}],
      ['(d) relay 429 rate spent', limited.info.webhookUrl, auth(limited.info)],
    ];
    const rounds = paths.map((): Row[] => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [index, [name, url, headers]] of paths.entries()) {
        if (url === limited.info.webhookUrl) await spendDeliveryRate(limited.info);
        rounds[index]!.push(await load(name, url, SMALL, headers, round === 0));
      }
    }
    const [bare1, naive1, relay1, notFound, tooMany] = rounds.map(medianRow) as [
      Row,
      Row,
      Row,
      Row,
      Row,
    ];
    for (const row of [bare1, naive1, relay1, notFound, tooMany]) console.log(formatRow(row));
    const rssAfter429 = await limited.rss();
    const bare64 = await load('(a) bare node:http', bare.info.url, LARGE, {}, false);
    const naive64 = await load('(b) naive, 1 tx/request', naive.info.url, LARGE, {}, false);
    const relay64 = await load(
      '(c) relay accept',
      relay.info.webhookUrl,
      LARGE,
      auth(relay.info),
      false,
    );
    for (const row of [bare64, naive64, relay64]) console.log(formatRow(row));
    const rssAfterAccept = await relay.rss();

    const ratio = (x: Row, y: Row): number =>
      x.result.requestsPerSecond / y.result.requestsPerSecond;
    const check = (ok: boolean): string => (ok ? 'meets target' : 'MISSES target');
    const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
    const cb1 = ratio(relay1, naive1);
    const p99ok = relay1.result.p99 <= naive1.result.p99;
    const d404 = ratio(notFound, bare1);
    const d429 = ratio(tooMany, bare1);
    console.log(`
c/b at 1 KB   ${cb1.toFixed(2)}  (target ≥ 2.5: ${check(cb1 >= 2.5)}); p99 ${relay1.result.p99} ms vs ${naive1.result.p99} ms (${check(p99ok)})
c/b at 64 KB  ${ratio(relay64, naive64).toFixed(2)}
d/a 404       ${d404.toFixed(2)}  (target ≥ 0.7: ${check(d404 >= 0.7)})
d/a 429       ${d429.toFixed(2)}  (target ≥ 0.7: ${check(d429 >= 0.7)})
relay RSS     ${mb(rssAfterAccept)} after the accept and 404 runs, ${mb(rssAfter429)} after the 429 runs (target < 200 MB: ${check(Math.max(rssAfterAccept, rssAfter429) < 200 * 1024 * 1024)})
(a) at 64 KB  ${Math.round(bare64.result.requestsPerSecond).toLocaleString('en-US')} req/s — for scale. Other load on this machine skews every number.`);

    mkdirSync('bench-output', { recursive: true });
    writeFileSync(
      join('bench-output', 'ingress.json'),
      JSON.stringify(
        {
          at: new Date().toISOString(),
          seconds: SECONDS,
          rounds: ROUNDS,
          connections: CONNECTIONS,
          rows: [bare1, bare64, naive1, naive64, relay1, relay64, notFound, tooMany],
          rss: { afterAccept: rssAfterAccept, after429: rssAfter429 },
        },
        null,
        2,
      ),
    );
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    rmSync(work, { recursive: true, force: true });
  }
}

export const ingressSuite: BenchSuite = { name: 'ingress', run };
