import { describe, expect, it } from 'vitest';
import type { AcceptItem, BatchItem } from '../../../src/main/store/delivery-batch.js';
import { JOB_LOCK_NAMESPACE, jobLockKey } from '../../../src/main/store/postgres/advisory-lock.js';
import { createPostgresBatchStore } from '../../../src/main/store/postgres/batch-store.js';
import { createPostgresDeliveriesRepository } from '../../../src/main/store/postgres/deliveries-repo.js';
import { createPostgresMetricsReader } from '../../../src/main/store/postgres/metrics-reader.js';
import type { PgPool } from '../../../src/main/store/postgres/pool.js';
import { createPostgresSearchIndex } from '../../../src/main/store/postgres/search-index.js';
import { usePostgres } from '../../support/postgres.js';
import { accepted, freshEpoch, rejected } from '../../support/store-seeds.js';
import { waitFor } from '../../support/wait.js';

const postgres = usePostgres();
const WINDOW_MS = 24 * 60 * 60_000;
const WEBHOOK = 'wh_searchindex';

/** `count` entries a millisecond apart: 3 in 4 Accepted (one of them holds `order_4711`), 1 refused. */
function logOf(count: number, t0: number): BatchItem[] {
  return Array.from({ length: count }, (_, i) =>
    i % 4 === 3
      ? rejected(WEBHOOK, t0 + i)
      : accepted(
          WEBHOOK,
          t0 + i,
          JSON.stringify({
            order: i === 42 ? 'order_4711' : `order_${10_000 + i}`,
            city: 'Zürich',
          }),
          { eventType: i % 2 === 0 ? 'invoice.paid' : 'invoice.payment_failed' },
        ),
  );
}

async function commitAll(pool: PgPool, items: BatchItem[]): Promise<string[]> {
  const store = createPostgresBatchStore(pool, { dedupeWindowMs: WINDOW_MS });
  const ids: string[] = [];
  for (let start = 0; start < items.length; start += 200) {
    const { committed } = await store.commit(items.slice(start, start + 200));
    ids.push(...committed.map((d) => d.id));
  }
  return ids;
}

const queued = async (pool: PgPool): Promise<number> =>
  createPostgresMetricsReader(pool).searchPending();

/** Every search a user might type, with the IDs it finds (all of them: the page is large). */
async function searches(pool: PgPool, ids: string[]): Promise<Record<string, string[]>> {
  const log = createPostgresDeliveriesRepository(pool);
  const found: Record<string, string[]> = {};
  for (const q of ['order_4711', 'ZÜRICH', 'payment_fail', ids[77]!.slice(-10), 'evt-dlv_']) {
    found[q] = (await log.page(WEBHOOK, 1_000, null, { q })).items.map((d) => d.id).sort();
    expect(await log.count(WEBHOOK, { q })).toBe(found[q].length);
  }
  return found;
}

describe('the PostgreSQL search indexer', () => {
  it('finds entries while they are queued and after slices have indexed them, the same rows', async () => {
    const { pool } = await postgres.database();
    const ids = await commitAll(pool, logOf(400, freshEpoch()));
    // The accept path queued every entry and every payload; nothing has indexed them yet.
    expect(await queued(pool)).toBe(400);

    const before = await searches(pool, ids);
    expect(before['order_4711']).toEqual([ids[42]]);
    expect(before['ZÜRICH']).toHaveLength(300);
    expect(before['payment_fail']).toHaveLength(ids.filter((_, i) => i % 4 < 3 && i % 2).length);
    expect(before[ids[77]!.slice(-10)]).toEqual([ids[77]]);
    expect(before['evt-dlv_']).toHaveLength(300);

    const index = createPostgresSearchIndex(pool);
    const slices: number[] = [];
    for (let more = true; more;) {
      const run = await index.indexSome(2);
      slices.push(run.indexed);
      more = run.more;
    }
    expect(slices.length).toBeGreaterThan(1);
    expect(slices.slice(0, -1).every((n) => n > 0)).toBe(true);
    // 400 log rows and 300 payloads, each indexed once.
    expect(slices.reduce((sum, n) => sum + n, 0)).toBe(700);
    expect(await queued(pool)).toBe(0);
    expect(await searches(pool, ids)).toEqual(before);
  });

  it("finds a webhook's entries by ID at every point of a catch-up, its queue shared with another webhook's", async () => {
    const { pool } = await postgres.database();
    // Each payload names the entry before it: a search for an entry's ID finds the entry (its ID
    // and identity) and the next one (its payload). Another webhook's entries lie between this
    // one's, so the queue mixes both.
    const t0 = freshEpoch();
    const chain = (webhook: string): AcceptItem[] =>
      Array.from({ length: 200 }, (_, i) => accepted(webhook, t0 + i, '{}')).map(
        (entry, i, all) => {
          const item = (entry as { item: AcceptItem }).item;
          const before = i === 0 ? null : (all[i - 1] as { item: AcceptItem }).item.id;
          return { ...item, body: Buffer.from(JSON.stringify({ parent: before, city: 'Zürich' })) };
        },
      );
    const mine = chain(WEBHOOK);
    const theirs = chain('wh_searchother');
    await commitAll(
      pool,
      mine.flatMap((item, i) =>
        [item, theirs[i]!].map((it) => ({ kind: 'accept' as const, item: it })),
      ),
    );
    // Statistics, as autovacuum gathers them on a relay's database: without any, the planner
    // tests the whole search again for each of the webhook's entries.
    await pool.query('ANALYZE');
    const log = createPostgresDeliveriesRepository(pool);
    const expectEveryPage = async (): Promise<void> => {
      for (let k = 5; k < 199; k += 21) {
        const page = await log.page(WEBHOOK, 50, null, { q: mine[k]!.id });
        expect(page.items.map((d) => d.id)).toEqual([mine[k + 1]!.id, mine[k]!.id]);
      }
    };
    await expectEveryPage();

    // One row a slice (a budget already spent), the pages read at each tenth of the queue: each
    // queue part indexed, part not, at its own point. Not a budget of milliseconds: a fast machine
    // indexed the whole queue in four slices of one.
    const index = createPostgresSearchIndex(pool);
    const total = await queued(pool);
    const tenth = Math.floor(total / 10);
    let checked = 0;
    for (let more = true, nextCheck = total - tenth; more;) {
      more = (await index.indexSome(0)).more;
      const left = await queued(pool);
      if (more && left > 0 && left <= nextCheck) {
        await expectEveryPage();
        checked++;
        nextCheck -= tenth;
      }
    }
    expect(checked).toBe(9);
    expect(await queued(pool)).toBe(0);
    await expectEveryPage();
  });

  it('indexes each row once when two relays index the same database at the same time', async () => {
    const { pool, openPool } = await postgres.database();
    await commitAll(pool, logOf(1_200, freshEpoch()));
    const relays = [createPostgresSearchIndex(pool), createPostgresSearchIndex(openPool())];

    const indexedBy = await Promise.all(
      relays.map(async (index) => {
        let indexed = 0;
        for (let more = true; more;) {
          const run = await index.indexSome(3);
          indexed += run.indexed;
          more = run.more;
        }
        return indexed;
      }),
    );

    expect(indexedBy.every((n) => n > 0)).toBe(true);
    expect(indexedBy[0]! + indexedBy[1]!).toBe(1_200 + 900);
    expect(await queued(pool)).toBe(0);
    const log = createPostgresDeliveriesRepository(pool);
    expect((await log.page(WEBHOOK, 5, null, { q: 'order_4711' })).items).toHaveLength(1);
  });

  it("holds no lock other relays' slices wait for while its payloads' statement runs", async () => {
    const { pool, openPool } = await postgres.database();
    await commitAll(pool, logOf(40, freshEpoch()));
    // Another session's SHARE lock holds up the payloads' UPDATE, as a long one would run.
    const blocker = await openPool().connect();
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE payloads IN SHARE MODE');
    const index = createPostgresSearchIndex(pool);
    // The first slice numbers the deliveries first, then goes on to the payloads.
    const slice = index.indexSome(1_000);
    // Its statement waits while being parsed (the table's lock), still shown as idle.
    const waitingOnPayloads = async (): Promise<boolean | null> => {
      const { rows } = await blocker.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'`,
      );
      return rows[0]!.n === 1 || null;
    };
    await waitFor(waitingOnPayloads, "the slice's payloads statement waiting");
    const { rows } = await blocker.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_locks
       WHERE locktype = 'advisory' AND classid = $1 AND objid = $2 AND objsubid = 2`,
      [JOB_LOCK_NAMESPACE, jobLockKey('search-order') >>> 0],
    );
    const numbered = await pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM deliveries WHERE indexed',
    );
    await blocker.query('COMMIT');
    blocker.release();
    await slice;
    // The deliveries were numbered and committed before the payloads' statement began.
    expect(numbered.rows[0]!.n).toBe(40);
    expect(rows[0]!.n).toBe(0);
    expect(await queued(pool)).toBe(0);
  });

  it('indexes around a payload that is not UTF-8, which stays findable by its ID and identity', async () => {
    const { pool } = await postgres.database();
    const t0 = freshEpoch();
    const binary = accepted(WEBHOOK, t0, '', { identity: 'binary-identity-1' });
    if (binary.kind === 'accept') binary.item.body = Buffer.from([0x7b, 0xff, 0xfe, 0x00, 0x7d]);
    const [binaryId, textId] = await commitAll(pool, [
      binary,
      accepted(WEBHOOK, t0 + 1, '{"note":"after the bytes"}'),
    ]);
    const log = createPostgresDeliveriesRepository(pool);
    const hits = async (q: string): Promise<string[]> =>
      (await log.page(WEBHOOK, 10, null, { q })).items.map((d) => d.id);
    expect(await hits('BINARY-identity')).toEqual([binaryId]);
    expect(await hits('after the')).toEqual([textId]);

    const index = createPostgresSearchIndex(pool);
    while ((await index.indexSome(50)).more);

    expect(await queued(pool)).toBe(0);
    expect(await hits('BINARY-identity')).toEqual([binaryId]);
    expect(await hits(binaryId!.slice(-12))).toEqual([binaryId]);
    expect(await hits('after the')).toEqual([textId]);
    expect(await log.payload(binaryId!)).toEqual(Buffer.from([0x7b, 0xff, 0xfe, 0x00, 0x7d]));
  });

  it('fails a slice whose connection drops, and indexes it all on the next one', async () => {
    const { pool, openPool } = await postgres.database();
    await commitAll(pool, logOf(40, freshEpoch()));
    const index = createPostgresSearchIndex(pool);
    const admin = openPool();
    // The slice's connection is ended by the server while it waits on a lock held here.
    const holder = await admin.connect();
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE deliveries IN ACCESS EXCLUSIVE MODE');
    // Its failure is caught at once: it may arrive before the terminate call below answers.
    const slice = index.indexSome(50).then(
      () => new Error('the slice committed'),
      (error: unknown) => error,
    );
    const pid = await waitFor(
      async () =>
        (
          await admin.query<{ pid: number }>(
            `SELECT pid FROM pg_stat_activity
             WHERE wait_event_type = 'Lock' AND datname = current_database()`,
          )
        ).rows[0]?.pid,
      'the slice to wait for the lock',
    );
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    expect(String(await slice)).toMatch(/terminat/);
    await holder.query('ROLLBACK');
    holder.release();

    expect(await queued(pool)).toBe(40);
    while ((await index.indexSome(50)).more);
    expect(await queued(pool)).toBe(0);
  });
});
