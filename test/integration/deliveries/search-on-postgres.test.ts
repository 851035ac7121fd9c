import { afterEach, describe, expect, it } from 'vitest';
import { DEDUPE_WINDOW_MS } from '../../../src/main/ingress/limits.js';
import { MAX_BATCH_ITEMS } from '../../../src/main/store/postgres/batch-statement.js';
import { openPostgresStore } from '../../../src/main/store/postgres/postgres-store.js';
import { usePostgres } from '../../support/postgres.js';
import { parseMetrics, sampleValue } from '../../support/prometheus.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';
import { waitFor } from '../../support/wait.js';

const postgres = usePostgres();
const MASTER_KEY = 'b2'.repeat(32);

/** A relay in this process on the shared database, as `hookport serve --database` runs one. */
const relayOn = (url: string): Promise<TestRelay> =>
  startTestRelay({
    openStore: ({ log }) =>
      openPostgresStore(url, { masterKey: MASTER_KEY, dedupeWindowMs: DEDUPE_WINDOW_MS, log }),
  });

const search = (relay: TestRelay, uid: string, q: string) =>
  relay.call('deliveries.list', { uid, q, limit: 100 });

const pendingOf = (relay: TestRelay): Promise<number> => relay.core.store.metrics.searchPending();

const postgresErrors = (relay: TestRelay): string[] =>
  relay.logs.filter((line) => line.includes('[postgres]'));

describe('searching the log on PostgreSQL, which indexes after the 202', () => {
  const running: TestRelay[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((relay) => relay.stop()));
  });

  it('finds a delivery by its payload from its 202 on, on either relay, and once both have indexed', async () => {
    const { url } = await postgres.database({ migrate: false });
    const a = await relayOn(url);
    running.push(a);
    const b = await relayOn(url);
    running.push(b);
    // Telling the indexer of each commit keeps the accept path's bound on a batch (a larger
    // one would be refused whole).
    expect(a.core.store.batchStore.maxBatchItems).toBe(MAX_BATCH_ITEMS);
    const created = await a.createWebhook({ name: 'tickets' });
    const uid = created.webhook.uid;
    const path = new URL(created.ingressUrl).pathname;
    // b hears of the new webhook (and its secret) from a: a moment later.
    await waitFor(
      async () =>
        (await postDelivery(`${b.ingressUrl}${path}`, '{"probe":1}', bearer(created.secret)))
          .status === 202,
      'the other relay to know the webhook',
    );

    const sent = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const [via, other] = i % 2 === 0 ? [a, b] : [b, a];
        const answer = await postDelivery(
          `${via.ingressUrl}${path}`,
          JSON.stringify({ ticket: `SUP-${7000 + i}`, status: 'open' }),
          bearer(created.secret),
        );
        expect(answer.status).toBe(202);
        // Whether or not an indexer has reached it yet, the other relay finds it at once.
        const found = await search(other, uid, `sup-${7000 + i}"`);
        expect(found.items.map((d) => d.id)).toEqual([answer.body.delivery_id]);
        return answer.body.delivery_id!;
      }),
    );

    await waitFor(async () => (await pendingOf(a)) === 0, 'the indexers to catch up', {
      timeoutMs: 15_000,
    });
    const all = await search(b, uid, 'SUP-70');
    expect(all.total).toBe(40);
    expect(all.items.map((d) => d.id).sort()).toEqual([...sent].sort());
    expect((await search(a, uid, 'sup-7039"')).items.map((d) => d.id)).toEqual([sent[39]]);

    // /metrics is Prometheus text on the admin listener, not a management call.
    const metrics = parseMetrics((await a.api<string>('GET', '/metrics')).body);
    expect(metrics.has('hookport_search_index_pending')).toBe(true);
    expect(sampleValue(metrics, 'hookport_search_index_pending')).toBe(0);
    expect([...postgresErrors(a), ...postgresErrors(b)]).toEqual([]);
  });

  it('logs a slice whose connection dropped, retries, and indexes what waited', async () => {
    const { url, pool: admin } = await postgres.database({ migrate: false });
    const relay = await relayOn(url);
    running.push(relay);
    const created = await relay.createWebhook({ name: 'dropped' });

    // Hold the log so that the indexer's next slice waits, then end that slice's connection.
    const holder = await admin.connect();
    await holder.query('BEGIN');
    const answer = await postDelivery(
      created.ingressUrl,
      '{"ticket":"SUP-31337"}',
      bearer(created.secret),
    );
    expect(answer.status).toBe(202);
    await holder.query('LOCK TABLE deliveries IN ACCESS EXCLUSIVE MODE');
    const slice = await waitFor(
      async () =>
        (
          await admin.query<{ pid: number }>(
            `SELECT pid FROM pg_stat_activity
             WHERE datname = current_database() AND wait_event_type = 'Lock'
               AND query LIKE '%UPDATE deliveries SET indexed%'`,
          )
        ).rows[0]?.pid,
      "the indexer's slice to wait for the lock",
    );
    await admin.query('SELECT pg_terminate_backend($1)', [slice]);
    await holder.query('ROLLBACK');
    holder.release();

    await waitFor(
      () => relay.logs.some((line) => line.includes('indexing the log for search failed')),
      'the failed slice to be logged',
    );
    await waitFor(async () => (await pendingOf(relay)) === 0, 'the indexer to retry', {
      timeoutMs: 15_000,
    });
    const found = await search(relay, created.webhook.uid, 'sup-31337');
    expect(found.items.map((d) => d.id)).toEqual([answer.body.delivery_id]);

    // Closing stops the indexer before the pool ends: nothing fails after.
    const logged = relay.logs.length;
    running.splice(0);
    await relay.stop();
    expect(relay.logs.slice(logged).filter((line) => line.includes('[postgres]'))).toEqual([]);
  });
});
