import { afterEach, describe, expect, it } from 'vitest';
import { DEDUPE_WINDOW_MS } from '../../../src/main/ingress/limits.js';
import type { BatchItem } from '../../../src/main/store/delivery-batch.js';
import { createPostgresBatchStore } from '../../../src/main/store/postgres/batch-store.js';
import type { PgPool } from '../../../src/main/store/postgres/pool.js';
import { openPostgresStore } from '../../../src/main/store/postgres/postgres-store.js';
import { usePostgres } from '../../support/postgres.js';
import { startTestRelay, type TestRelay } from '../../support/relay.js';
import { accepted } from '../../support/store-seeds.js';
import { waitFor } from '../../support/wait.js';

const postgres = usePostgres();
const MASTER_KEY = 'd4'.repeat(32);
const DAY_MS = 24 * 60 * 60_000;
/** Past the default 7 days: a prune of a second or two at its pace (a quarter of the time). */
const OLD = 12_000;
/** More than the default 50 kept per webhook, all recent: every old entry goes. */
const RECENT = 60;

const relayOn = (url: string): Promise<TestRelay> =>
  startTestRelay({
    openStore: ({ log }) =>
      openPostgresStore(url, { masterKey: MASTER_KEY, dedupeWindowMs: DEDUPE_WINDOW_MS, log }),
  });

const entries = async (pool: PgPool): Promise<number> =>
  (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM deliveries')).rows[0]!.n;

async function commitAll(pool: PgPool, items: BatchItem[]): Promise<void> {
  const store = createPostgresBatchStore(pool, { dedupeWindowMs: DEDUPE_WINDOW_MS });
  for (let start = 0; start < items.length; start += 500) {
    await store.commit(items.slice(start, start + 500));
  }
}

describe('retention on PostgreSQL, in paced statements', () => {
  const running: TestRelay[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((relay) => relay.stop()));
  });

  it(
    'stops without an error when the relay stops mid-prune; the next start prunes the rest',
    { timeout: 120_000 },
    async () => {
      const { url, pool } = await postgres.database({ migrate: false });
      const first = await relayOn(url);
      running.push(first);
      const { webhook } = await first.createWebhook({ name: 'orders' });
      await first.stop();
      running.pop();

      const now = Date.now();
      await commitAll(pool, [
        ...Array.from({ length: OLD }, (_, i) =>
          accepted(webhook.uid, now - 10 * DAY_MS + i, `{"n":${i}}`),
        ),
        ...Array.from({ length: RECENT }, (_, i) => accepted(webhook.uid, now - 1_000 + i, '{}')),
      ]);

      // Each start prunes at once; this relay is stopped once the prune has begun.
      const second = await relayOn(url);
      running.push(second);
      await waitFor(async () => (await entries(pool)) < OLD + RECENT, 'the prune to begin', {
        intervalMs: 5,
      });
      await second.stop();
      running.pop();
      const left = await entries(pool);
      expect(left).toBeGreaterThan(RECENT);
      expect(
        second.logs.filter((line) => /^\[(retention|postgres)\] (?!pruned)/.test(line)),
      ).toEqual([]);

      // Entries pruned and entries kept are whole: no payload outlives its entry.
      const orphans = await pool.query(
        'SELECT 1 FROM payloads p WHERE NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.id = p.delivery_id)',
      );
      expect(orphans.rowCount).toBe(0);

      const third = await relayOn(url);
      running.push(third);
      const pruned = await waitFor(
        () => third.logs.find((line) => line.startsWith('[retention] pruned')),
        'the rest to be pruned',
        { timeoutMs: 30_000 },
      );
      expect(pruned).toBe(`[retention] pruned ${left - RECENT} deliveries`);
      expect(await entries(pool)).toBe(RECENT);
    },
  );
});
