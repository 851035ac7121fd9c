import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../src/main/store/sqlite/db.js';
import { createRetention } from '../../../src/main/store/sqlite/retention.js';
import { createSearchIndex } from '../../../src/main/store/sqlite/search-index.js';
import { WriterYield } from '../../../src/main/store/sqlite/writer-yield.js';
import { seedLog } from '../../support/seed-log.js';

const UID = 'wh_gives_way';
const DAY_MS = 24 * 60 * 60_000;
const NOW = Date.parse('2026-03-09T12:00:00Z');
/** A budget no slice here would spend: only a waiting writer ends one early. */
const LONG_BUDGET_MS = 60_000;

/**
 * The writer thread's background work (the index's catch-up, retention) gives way the moment a
 * commit or a main-thread write waits for SQLite's write lock (writer-yield.ts): a slice ends
 * after the entry at hand, whatever budget is left, and none begins until nobody waits. On the
 * real file, as the writer thread runs them.
 */
describe('background work on the writer thread gives way to a waiting writer', () => {
  let dir: string;
  let db: Db;
  let waiters: WriterYield;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hookport-gives-way-'));
    db = openDatabase(join(dir, 'hookport.sqlite'));
    waiters = new WriterYield();
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an index slice ends after one entry once a commit is posted, and none starts until it is taken', () => {
    seedLog(db, UID, 200);
    const index = createSearchIndex(db, waiters.wanted);
    // What the main thread does when it hands the thread a batch.
    waiters.posted();
    expect(index.indexSome(LONG_BUDGET_MS)).toMatchObject({ indexed: 0, more: true });
    waiters.taken();
    let calls = 0;
    const countingIndex = createSearchIndex(db, () => ++calls > 3 && waiters.wanted());
    waiters.posted();
    // Checked before the slice and after each entry: the third entry's check sees the commit.
    expect(countingIndex.indexSome(LONG_BUDGET_MS)).toMatchObject({ indexed: 3, more: true });
    waiters.taken();
    expect(index.indexSome(LONG_BUDGET_MS)).toMatchObject({ indexed: 197, more: false });
  });

  it('a main-thread call under way counts as waiting, and only while it runs', () => {
    expect(waiters.wanted()).toBe(false);
    expect(waiters.around(() => waiters.wanted())).toBe(true);
    expect(waiters.wanted()).toBe(false);
    expect(() =>
      waiters.around(() => {
        throw new Error('the write failed');
      }),
    ).toThrow('the write failed');
    expect(waiters.wanted()).toBe(false);
  });

  it('retention waits while someone waits, then prunes everything due', async () => {
    seedLog(db, UID, 300, { atOf: (i) => NOW - 9 * DAY_MS + i * 60_000 });
    createSearchIndex(db).indexSome(LONG_BUDGET_MS);
    const retention = createRetention(db, waiters.wanted);
    waiters.enter();
    let done = false;
    const pruning = retention
      .prune({ days: 7, minPerWebhook: 100, dedupeWindowMs: DAY_MS }, NOW)
      .finally(() => (done = true));
    // Several of its rests go by with the main thread's write still under way: nothing goes.
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 2));
    expect(done).toBe(false);
    const count = db.prepare<[], number>('SELECT count(*) FROM deliveries').pluck();
    expect(count.get()).toBe(300);
    waiters.leave();
    expect(await pruning).toBe(200);
    expect(count.get()).toBe(100);
  });
});
