import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Db } from '../../../src/main/store/sqlite/db.js';
import { AskerGoneError } from '../../../src/main/store/asker-gone.js';
import { SqliteReadLanes } from '../../../src/main/store/sqlite/read-lanes.js';
import { sqliteDbOf } from '../../../src/main/store/sqlite/sqlite-store.js';
import type { DeliveriesRepository } from '../../../src/main/store/deliveries.js';
import { indexAll } from '../../support/index-all.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';
import { seedLog } from '../../support/seed-log.js';

const COMMON = 'harbour-crane';
const READ_THEN_CLOSE = fileURLToPath(
  new URL('../../fixtures/store/read-then-close.ts', import.meta.url),
);
const ENTRIES = 20_000;

/**
 * The delivery log's pages and totals are read on a thread of their own (sqlite/read-thread.ts):
 * a search's first total over a week of entries takes half a second at two million, and on the
 * main thread every sender waited as long.
 */
describe('the SQLite read thread', () => {
  let relay: TestRelay;
  let db: Db;
  let webhook: { uid: string; ingressUrl: string; secret: string | null };

  beforeAll(async () => {
    relay = await startTestRelay();
    db = sqliteDbOf(relay.core.store);
    const created = await relay.createWebhook({ name: 'cranes' });
    webhook = { uid: created.webhook.uid, ingressUrl: created.ingressUrl, secret: created.secret };
    seedLog(db, webhook.uid, ENTRIES, {
      bodyOf: (i) => JSON.stringify({ n: i, note: COMMON }),
      labelOf: () => 'Accepted',
    });
    await indexAll(db);
  });
  afterAll(async () => {
    await relay?.stop();
  });

  /** How often the relay's event loop turned while `read` was answered. */
  const turnsDuring = async <T>(read: () => Promise<T>): Promise<{ value: T; turns: number }> => {
    let turns = 0;
    let done = false;
    const spin = (): void => {
      turns++;
      if (!done) setImmediate(spin);
    };
    const reading = read();
    setImmediate(spin);
    try {
      return { value: await reading, turns };
    } finally {
      done = true;
    }
  };

  it("counts a common text's matches while the event loop goes on turning", async () => {
    const { value, turns } = await turnsDuring(() =>
      relay.core.store.deliveries.count(webhook.uid, { q: COMMON }),
    );
    expect(value).toBe(ENTRIES);
    // On the main thread the count ran inside the call: not one turn before its answer.
    expect(turns).toBeGreaterThan(0);
  });

  it('reads a page off the main thread, the same rows the main connection reads', async () => {
    const { value, turns } = await turnsDuring(() =>
      relay.core.store.deliveries.page(webhook.uid, 25, null, { q: COMMON }),
    );
    const newest = db
      .prepare('SELECT id FROM deliveries WHERE webhook_uid = ? ORDER BY id DESC LIMIT 25')
      .pluck()
      .all(webhook.uid);
    expect(value.items.map((d) => d.id)).toEqual(newest);
    expect(value.nextBefore).toBe(newest.at(-1));
    expect(turns).toBeGreaterThan(0);
  });

  it("answers the UI's page and its plain total while a storm of search totals is counted", async () => {
    const answered: string[] = [];
    const now = Date.now();
    // Each a first count over every entry: no kept total answers another time range.
    const counts = Array.from({ length: 12 }, (_, i) =>
      relay.core.store.deliveries
        .count(webhook.uid, { q: COMMON, to: now + i })
        .then((total) => answered.push(`count ${total}`)),
    );
    const page = relay
      .call('deliveries.list', { uid: webhook.uid, limit: 50 })
      .then(({ items, total }) => answered.push(`page ${items.length} of ${total}`));
    await Promise.all([...counts, page]);
    // One thread for every read answered the page after the twelve counts.
    expect(answered.indexOf(`page 50 of ${ENTRIES}`)).toBeLessThan(6);
    expect(answered.filter((a) => a === `count ${ENTRIES}`)).toHaveLength(12);
  });

  it('answers a search counted before ahead of the first counts waiting', async () => {
    const now = Date.now();
    const counted = { q: COMMON, to: now + 50 };
    await relay.core.store.deliveries.count(webhook.uid, counted);
    const answered: string[] = [];
    const firsts = Array.from({ length: 8 }, (_, i) =>
      relay.core.store.deliveries
        .count(webhook.uid, { q: COMMON, to: now + 60 + i })
        .then(() => answered.push(`first ${i}`)),
    );
    const again = relay.core.store.deliveries
      .count(webhook.uid, counted)
      .then((total) => answered.push(`again ${total}`));
    await Promise.all([...firsts, again]);
    // In the order asked it came last; counted on from its kept total, it went second.
    expect(answered.indexOf(`again ${ENTRIES}`)).toBe(1);
  });

  it('answers a search counted before its thread closed ahead too: the next thread counts on from the saved total', async () => {
    const reads = new SqliteReadLanes(db.name, 20);
    const deliveries = reads.deliveries({} as DeliveriesRepository);
    try {
      const now = Date.now();
      const counted = { q: COMMON, to: now + 40 };
      await expect(deliveries.count(webhook.uid, counted)).resolves.toBe(ENTRIES);
      await vi.waitFor(() => expect(reads.started).toEqual([]), { timeout: 10_000 });
      const answered: string[] = [];
      const firsts = Array.from({ length: 8 }, (_, i) =>
        deliveries
          .count(webhook.uid, { q: COMMON, to: now + 41 + i })
          .then(() => answered.push(`first ${i}`)),
      );
      const again = deliveries
        .count(webhook.uid, counted)
        .then((total) => answered.push(`again ${total}`));
      await Promise.all([...firsts, again]);
      expect(answered.indexOf(`again ${ENTRIES}`)).toBe(1);
    } finally {
      await reads.close();
    }
  });

  it('answers a search with a saved total ahead after a restart too', async () => {
    const now = Date.now();
    const saved = { q: COMMON, to: now + 70 };
    const before = new SqliteReadLanes(db.name);
    await expect(
      before.deliveries({} as DeliveriesRepository).count(webhook.uid, saved),
    ).resolves.toBe(ENTRIES);
    await before.close();

    // A relay started again: its lanes have counted nothing yet.
    const reads = new SqliteReadLanes(db.name);
    const deliveries = reads.deliveries({} as DeliveriesRepository);
    try {
      const answered: string[] = [];
      const firsts = Array.from({ length: 8 }, (_, i) =>
        deliveries
          .count(webhook.uid, { q: COMMON, to: now + 71 + i })
          .then(() => answered.push(`first ${i}`)),
      );
      const again = deliveries
        .count(webhook.uid, saved)
        .then((total) => answered.push(`again ${total}`));
      await Promise.all([...firsts, again]);
      expect(answered.indexOf(`again ${ENTRIES}`)).toBe(1);
    } finally {
      await reads.close();
    }
  });

  it("never counts a search's total whose asker has left before its turn", async () => {
    const now = Date.now();
    const left = new AbortController();
    const asked = Array.from({ length: 6 }, (_, i) =>
      relay.core.store.deliveries.count(
        webhook.uid,
        { q: COMMON, to: now + i },
        i === 0 ? undefined : left.signal,
      ),
    );
    // The first is being counted; the others wait their turn, and their asker leaves meanwhile.
    left.abort();
    const answers = await Promise.allSettled(asked);
    expect(answers[0]).toEqual({ status: 'fulfilled', value: ENTRIES });
    for (const answer of answers.slice(1)) {
      expect(answer.status === 'rejected' && answer.reason).toBeInstanceOf(AskerGoneError);
    }
    // And the next asker is answered.
    await expect(relay.core.store.deliveries.count(webhook.uid, { q: COMMON })).resolves.toBe(
      ENTRIES,
    );
  });

  it('lists and counts a delivery as soon as its 202 has come back', async () => {
    const response = await postDelivery(
      webhook.ingressUrl,
      JSON.stringify({ note: 'late crane' }),
      bearer(webhook.secret),
    );
    expect(response.status).toBe(202);
    const id = response.body.delivery_id;
    const page = await relay.call('deliveries.list', { uid: webhook.uid, limit: 1 });
    expect(page.items[0]?.id).toBe(id);
    expect(page.total).toBe(ENTRIES + 1);
    // Still queued for the index: found by the queue's scan, from the 202 on.
    const found = await relay.call('deliveries.list', { uid: webhook.uid, q: 'late crane' });
    expect(found.items.map((d) => d.id)).toEqual([id]);
  });
});

describe('the read thread on its own', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hookport-read-thread-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const onMain = {} as DeliveriesRepository;

  it('fails a read with why when it cannot open the file, and tries again for the next', async () => {
    const file = join(dir, 'missing.sqlite');
    const reads = new SqliteReadLanes(file);
    const deliveries = reads.deliveries(onMain);
    await expect(deliveries.count('wh_none')).rejects.toThrow(
      `the SQLite read thread cannot open ${file}: unable to open database file`,
    );
    // Read-only: the thread never creates the file it was given.
    expect(existsSync(file)).toBe(false);
    await expect(deliveries.page('wh_none', 10, null)).rejects.toThrow(/unable to open/);
    await reads.close();
  });

  it('lets a process that read the log and closed its store end on its own', () => {
    const child = spawnSync(process.execPath, ['--import', 'tsx', READ_THEN_CLOSE, dir], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    // Not 13 (a top-level await left unsettled): the closing thread kept the process up.
    expect(child.status, child.stderr).toBe(0);
    expect(JSON.parse(child.stdout)).toEqual({ total: 0 });
  });

  it('closes once idle, and the next read starts it again', async () => {
    const file = join(dir, 'hookport.sqlite');
    openDatabase(file).close();
    const reads = new SqliteReadLanes(file, 20);
    const deliveries = reads.deliveries(onMain);
    expect(reads.started).toEqual([]);
    await expect(deliveries.count('wh_none', { q: 'crane' })).resolves.toBe(0);
    expect(reads.started).toEqual(['search totals']);
    await vi.waitFor(() => expect(reads.started).toEqual([]), { timeout: 10_000 });
    await expect(deliveries.page('wh_none', 10, null)).resolves.toEqual({
      items: [],
      nextBefore: null,
    });
    expect(reads.started).toEqual(['pages']);
    await reads.close();
    expect(reads.started).toEqual([]);
  });
});
