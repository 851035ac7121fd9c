/**
 * The accept path's store on PostgreSQL (issue 16), store level: no HTTP, 50 concurrent
 * "requests" each waiting for its delivery to be durable, on a private cluster with fsync and
 * synchronous_commit on:
 *   (a) naive: one transaction per request (dedupe key, delivery row, payload, COMMIT) on a pool
 *       of 10 (pg's default) and of 50 (a connection per request in flight);
 *   (b) the group commit: DeliveryWriter over PostgresBatchStore, one batch in flight;
 *   (c) the same with the batch store's commitsInFlight (2, what the relay runs): two backends
 *       share the work.
 * Both write the same rows to the same schema; only the transactions differ. The rounds are
 * interleaved (a10, a50, b, a10, …) and each row is the median round. BENCH_SECONDS (default 5)
 * and BENCH_ROUNDS (default 3) set the run lengths. The relay-level benchmark (HTTP, one and two
 * relays, the SQLite relay, a naive server) is the `postgres` suite; `npm run bench -- postgres`
 * runs both.
 */
import { performance } from 'node:perf_hooks';
import { newDeliveryId } from '../../src/main/ids.js';
import { DeliveryWriter } from '../../src/main/store/delivery-writer.js';
import type { AcceptItem } from '../../src/main/store/delivery-batch.js';
import { createPostgresBatchStore } from '../../src/main/store/postgres/batch-store.js';
import { withTransaction } from '../../src/main/store/postgres/client.js';
import { migratePostgres } from '../../src/main/store/postgres/migrate.js';
import { openPostgresPool, type PgPool } from '../../src/main/store/postgres/pool.js';
import { startPostgresCluster } from '../../test/support/postgres-cluster.js';
import { eventBody } from '../ingress/event-body.js';
import type { BenchSuite } from './index.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENCY = 50;
const WINDOW_MS = 7 * 24 * 60 * 60_000;
const WEBHOOK = 'wh_benchpostgres000000000000';

interface Result {
  name: string;
  bodyBytes: number;
  perSecond: number;
  p50: number;
  p99: number;
}

type Accept = (item: AcceptItem) => Promise<unknown>;

let sequence = 0;
function item(body: Buffer): AcceptItem {
  const receivedAt = Date.now();
  return {
    id: newDeliveryId(receivedAt),
    webhookUid: WEBHOOK,
    receivedAt,
    body,
    identity: `bench-${process.pid}-${++sequence}`,
    identitySource: 'x-service-delivery-id',
    clientAddress: '127.0.0.1',
    runs: [],
    request: {
      method: 'POST',
      path: `/webhooks/w/${WEBHOOK}`,
      headers: [
        'Host',
        '127.0.0.1',
        'Content-Type',
        'application/json',
        'Authorization',
        '[redacted]',
      ],
    },
    eventType: null,
  };
}

/** The naive server's whole accept: its own transaction, the same rows as the batch store. */
function naiveAccept(pool: PgPool): Accept {
  return (delivery) =>
    withTransaction(pool, async (client) => {
      const claimed = await client.query(
        `INSERT INTO dedupe_keys (webhook_uid, identity, delivery_id, accepted_at)
         VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
        [delivery.webhookUid, delivery.identity, delivery.id, delivery.receivedAt],
      );
      const label = claimed.rowCount === 1 ? 'Accepted' : 'Duplicate';
      await client.query(
        `INSERT INTO deliveries (id, webhook_uid, label, size, received_at, identity, identity_source, client_address)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          delivery.id,
          delivery.webhookUid,
          label,
          delivery.body.length,
          delivery.receivedAt,
          delivery.identity,
          delivery.identitySource,
          delivery.clientAddress,
        ],
      );
      if (label === 'Accepted') {
        await client.query('INSERT INTO payloads (delivery_id, body) VALUES ($1, $2)', [
          delivery.id,
          delivery.body,
        ]);
      }
    });
}

async function measure(name: string, bodyBytes: number, accept: Accept): Promise<Result> {
  const body = eventBody(bodyBytes);
  const latencies: number[] = [];
  const started = performance.now();
  const end = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        await accept(item(body));
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((x, y) => x - y);
  const at = (q: number): number =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  return { name, bodyBytes, perSecond: latencies.length / elapsed, p50: at(0.5), p99: at(0.99) };
}

const median = (results: Result[]): Result =>
  [...results].sort((x, y) => x.perSecond - y.perSecond)[Math.floor(results.length / 2)]!;

function format(r: Result): string {
  return [
    r.name.padEnd(34),
    `${r.bodyBytes / 1024} KB`.padStart(6),
    Math.round(r.perSecond).toLocaleString('en-US').padStart(9),
    r.p50.toFixed(1).padStart(7),
    r.p99.toFixed(1).padStart(7),
  ].join(' ');
}

async function run(): Promise<void> {
  const cluster = await startPostgresCluster();
  const pools: PgPool[] = [];
  const fresh = async (max: number): Promise<PgPool> => {
    const pool = openPostgresPool(await cluster.createDatabase(), { max });
    pools.push(pool);
    await migratePostgres(pool);
    return pool;
  };
  try {
    const naive10 = await fresh(10);
    const naive50 = await fresh(50);
    const grouped = await fresh(10);
    const twoInFlight = await fresh(10);
    const writerOn = (pool: PgPool, inFlight: 'one' | 'store'): DeliveryWriter => {
      const store = createPostgresBatchStore(pool, { dedupeWindowMs: WINDOW_MS });
      return new DeliveryWriter(store, {
        maxInFlight: inFlight === 'one' ? 1 : store.commitsInFlight,
        onCommit: () => undefined,
        onError: (error) => console.error(error),
      });
    };
    const writer = writerOn(grouped, 'one');
    const overlapping = writerOn(twoInFlight, 'store');
    const paths: Array<[string, PgPool, Accept]> = [
      ['(a) naive, 1 tx/request, pool 10', naive10, naiveAccept(naive10)],
      ['(a) naive, 1 tx/request, pool 50', naive50, naiveAccept(naive50)],
      ['(b) group commit (batch store)', grouped, (i) => writer.accept(i)],
      ['(c) group commit, 2 in flight', twoInFlight, (i) => overlapping.accept(i)],
    ];
    console.log(
      `${CONCURRENCY} concurrent accepts; each row the median of ${ROUNDS} interleaved rounds of ${SECONDS} s; latencies in ms\n`,
    );
    console.log(
      `${'store'.padEnd(34)} ${'body'.padStart(6)} ${'req/s'.padStart(9)} ${'p50'.padStart(7)} ${'p99'.padStart(7)}`,
    );
    for (const bodyBytes of [1024, 64 * 1024]) {
      const rounds = paths.map((): Result[] => []);
      for (let round = 0; round < ROUNDS; round++) {
        for (const [index, [name, pool, accept]] of paths.entries()) {
          // Every round starts from empty tables, so no path pays for another's rows.
          await pool.query('TRUNCATE deliveries, payloads, dedupe_keys');
          rounds[index]!.push(await measure(name, bodyBytes, accept));
        }
      }
      const [a10, a50, b, c] = rounds.map(median) as [Result, Result, Result, Result];
      for (const row of [a10, a50, b, c]) console.log(format(row));
      console.log(
        `  group commit / naive pool 10: ${(b.perSecond / a10.perSecond).toFixed(2)}× req/s, p99 ${b.p99.toFixed(1)} vs ${a10.p99.toFixed(1)} ms`,
      );
      console.log(
        `  group commit / naive pool 50: ${(b.perSecond / a50.perSecond).toFixed(2)}× req/s, p99 ${b.p99.toFixed(1)} vs ${a50.p99.toFixed(1)} ms`,
      );
      console.log(
        `  2 in flight / naive pool 10:  ${(c.perSecond / a10.perSecond).toFixed(2)}× req/s, p99 ${c.p99.toFixed(1)} vs ${a10.p99.toFixed(1)} ms`,
      );
    }
  } finally {
    await Promise.all(pools.map((pool) => pool.end()));
    await cluster.stop();
  }
}

export const postgresStoreSuite: BenchSuite = { name: 'postgres-store', run };
