/**
 * Ingress throughput on loopback (issue 2), every server in a process of its own and the load
 * generator (autocannon, 50 connections, a unique X-Service-Delivery-Id per request) in another:
 *   (a) bare node:http that reads the body and answers 202 — the floor of what HTTP costs;
 *   (b) naive: node:http + JSON.parse + one synchronous=FULL SQLite transaction per request;
 *   (c) the relay's accept path (startCore, limits raised — only benchmarks raise them);
 *   (d) the relay's 404 (unknown webhook) and 429 (delivery rate spent) paths.
 * Targets: c/b ≥ 2.5 at 1 KB with p99 no worse than (b)'s; d/a ≥ 0.7; relay RSS < 200 MB.
 * BENCH_SECONDS (default 10) and BENCH_WARMUP_SECONDS (default 2) set the run lengths.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadResult } from '../ingress/load-generator.js';
import { runLoad, startServer, type ServerProcess } from '../ingress/processes.js';
import type { BenchRelayInfo } from '../relay-server.js';
import type { BenchSuite } from './index.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const CONNECTIONS = 50;
const SMALL = 1024;
const LARGE = 64 * 1024;

interface Row {
  name: string;
  bodyBytes: number;
  result: LoadResult;
}

let runs = 0;

async function measure(
  name: string,
  url: string,
  bodyBytes: number,
  headers: Record<string, string> = {},
): Promise<Row> {
  const base = { url, bodyBytes, connections: CONNECTIONS, headers };
  const prefix = `${name.replace(/\W+/g, '-')}-${Date.now()}-${++runs}`;
  if (WARMUP_SECONDS > 0)
    await runLoad({ ...base, seconds: WARMUP_SECONDS, idPrefix: `${prefix}-warm` });
  const result = await runLoad({ ...base, seconds: SECONDS, idPrefix: prefix });
  const row = { name, bodyBytes, result };
  console.log(formatRow(row));
  return row;
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

async function withServer<T, R>(
  start: () => Promise<ServerProcess<T>>,
  use: (server: ServerProcess<T>) => Promise<R>,
): Promise<R> {
  const server = await start();
  try {
    return await use(server);
  } finally {
    await server.stop();
  }
}

/** Spends the webhook's 60-a-minute delivery budget so that every request after it gets 429. */
async function spendDeliveryRate(info: BenchRelayInfo): Promise<void> {
  for (let i = 0; i < 60; i++) {
    const response = await fetch(info.webhookUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${info.secret}`, 'x-service-delivery-id': `prefill-${i}` },
      body: '{}',
    });
    if (response.status !== 202) throw new Error(`prefill got ${response.status}`);
  }
}

async function run(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'hookport-bench-'));
  const dir = (name: string): string => {
    const path = join(work, name);
    mkdirSync(path);
    return path;
  };
  console.log(
    `${CONNECTIONS} connections, ${SECONDS} s per run after ${WARMUP_SECONDS} s of warm-up; latencies in ms\n`,
  );
  console.log(
    `${'server'.padEnd(28)} ${'body'.padStart(6)} ${'req/s'.padStart(9)} ${'p50'.padStart(7)} ${'p99'.padStart(7)}   statuses`,
  );
  try {
    const [bare1, bare64] = await withServer(
      () => startServer<{ url: string }>('bench/ingress/bare-server.ts'),
      async ({ info }) => [
        await measure('(a) bare node:http', info.url, SMALL),
        await measure('(a) bare node:http', info.url, LARGE),
      ],
    );
    const [naive1, naive64] = await withServer(
      () => startServer<{ url: string }>('bench/ingress/naive-server.ts', [dir('naive')]),
      async ({ info }) => [
        await measure('(b) naive, 1 tx/request', info.url, SMALL),
        await measure('(b) naive, 1 tx/request', info.url, LARGE),
      ],
    );
    const { relay1, relay64, notFound, rssAfterAccept } = await withServer(
      () => startServer<BenchRelayInfo>('bench/relay-server.ts', [dir('relay'), 'raised']),
      async (relay) => {
        const auth = { authorization: `Bearer ${relay.info.secret}` };
        const relay1 = await measure('(c) relay accept', relay.info.webhookUrl, SMALL, auth);
        const relay64 = await measure('(c) relay accept', relay.info.webhookUrl, LARGE, auth);
        const notFound = await measure(
          '(d) relay 404 unknown',
          relay.info.unknownWebhookUrl,
          SMALL,
        );
        return { relay1, relay64, notFound, rssAfterAccept: await relay.rss() };
      },
    );
    const { tooMany, rssAfter429 } = await withServer(
      () => startServer<BenchRelayInfo>('bench/relay-server.ts', [dir('relay-default'), 'default']),
      async (relay) => {
        await spendDeliveryRate(relay.info);
        const auth = { authorization: `Bearer ${relay.info.secret}` };
        const tooMany = await measure(
          '(d) relay 429 rate spent',
          relay.info.webhookUrl,
          SMALL,
          auth,
        );
        return { tooMany, rssAfter429: await relay.rss() };
      },
    );

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
relay RSS     ${mb(rssAfterAccept)} after the accept and 404 runs, ${mb(rssAfter429)} after the 429 run (target < 200 MB: ${check(Math.max(rssAfterAccept, rssAfter429) < 200 * 1024 * 1024)})
(a) at 64 KB  ${Math.round(bare64.result.requestsPerSecond).toLocaleString('en-US')} req/s — for scale. Other load on this machine skews every number.`);

    mkdirSync('bench-output', { recursive: true });
    writeFileSync(
      join('bench-output', 'ingress.json'),
      JSON.stringify(
        {
          at: new Date().toISOString(),
          seconds: SECONDS,
          connections: CONNECTIONS,
          rows: [bare1, bare64, naive1, naive64, relay1, relay64, notFound, tooMany],
          rss: { afterAccept: rssAfterAccept, after429: rssAfter429 },
        },
        null,
        2,
      ),
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export const ingressSuite: BenchSuite = { name: 'ingress', run };
