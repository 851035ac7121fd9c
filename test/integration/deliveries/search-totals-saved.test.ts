import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countByPartsCall, countCall } from '../../../src/main/store/sql/deliveries.js';
import type { DeliveryPageFilter } from '../../../src/main/store/deliveries.js';
import type { Db } from '../../../src/main/store/sqlite/db.js';
import { sqliteDialect } from '../../../src/main/store/sqlite/dialect.js';
import { queriesOn } from '../../../src/main/store/sqlite/queries.js';
import { createRetention } from '../../../src/main/store/sqlite/retention.js';
import { savedSearchTotals, totalsFileOf } from '../../../src/main/store/sqlite/saved-totals.js';
import { keptSearchTotals } from '../../../src/main/store/sqlite/search-totals.js';
import { sqliteDbOf } from '../../../src/main/store/sqlite/sqlite-store.js';
import { indexAll } from '../../support/index-all.js';
import {
  bearer,
  postDelivery,
  startTestRelay,
  tempDir,
  type TestRelay,
} from '../../support/relay.js';
import { seedLog } from '../../support/seed-log.js';

const DAY_MS = 24 * 3600_000;
const COMMON = 'parcel-lyon';
const ENTRIES = 4_000;
/** The oldest this many minutes past a 7-day retention (one entry a minute). */
const PAST_RETENTION = 1_000;

/**
 * SQLite's kept totals saved in a file beside the relay's (sqlite/saved-totals.ts): the totals' read
 * thread closes after 5 idle minutes and a relay restarts, and a common text's first count
 * (half a second at two million entries) had been made again after either.
 */
describe('search totals saved on SQLite', () => {
  // Kept for the restart: a relay started on a directory of its own removes it when stopped.
  const dataDir = tempDir('hookport-saved-totals-');
  let relay: TestRelay;
  let db: Db;
  let ours: { uid: string; ingressUrl: string; secret: string | null };
  let start: number;

  /** The answer of a plain scan of the log (the oracle). */
  const scanned = (): number =>
    db
      .prepare(
        `SELECT count(*) FROM deliveries d JOIN payloads p ON p.delivery_id = d.id
         WHERE d.webhook_uid = ? AND instr(lower(CAST(p.body AS TEXT)), ?) > 0`,
      )
      .pluck()
      .get(ours.uid, COMMON) as number;

  /**
   * A totals' thread as one is started (a first after a restart or an idle close), its counts
   * over the whole log recorded: `whole` is how many there were.
   */
  const thread = (saving = true) => {
    const saved = saving ? savedSearchTotals(db.name) : undefined;
    const queries = queriesOn(db);
    const reads = { whole: 0 };
    const total = keptSearchTotals(
      db,
      (uid, only, window) => queries.run(countCall(sqliteDialect, uid, only, window)),
      (uid, only, span, window) => {
        if (window?.fromRowid === undefined) reads.whole += 1;
        return queries.run(countByPartsCall(sqliteDialect, uid, only, span, window));
      },
      saved,
    );
    return { count: (only: DeliveryPageFilter = { q: COMMON }) => total(ours.uid, only), reads };
  };

  const savedRows = (): Array<{ search: string; kept: string }> => {
    const index = new Database(totalsFileOf(db.name), { readonly: true });
    try {
      return index.prepare('SELECT search, kept FROM search_totals').all() as Array<{
        search: string;
        kept: string;
      }>;
    } finally {
      index.close();
    }
  };

  const send = async (note: string, id: string) => {
    const sent = await postDelivery(ours.ingressUrl, JSON.stringify({ note }), {
      ...bearer(ours.secret),
      'X-Service-Delivery-Id': id,
    });
    expect(sent.status).toBe(202);
  };

  beforeAll(async () => {
    relay = await startTestRelay({ dataDir });
    db = sqliteDbOf(relay.core.store);
    const created = await relay.createWebhook({ name: 'parcels' });
    ours = { uid: created.webhook.uid, ingressUrl: created.ingressUrl, secret: created.secret };
    start = Date.now() - 7 * DAY_MS - PAST_RETENTION * 60_000;
    seedLog(db, ours.uid, ENTRIES, {
      bodyOf: (i) => JSON.stringify({ n: i, note: i % 3 === 0 ? 'PARCEL-LYON' : COMMON }),
      atOf: (i) => start + i * 60_000,
      labelOf: () => 'Accepted',
    });
    await indexAll(db);
  });
  afterAll(async () => {
    await relay.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('counts on from the total a closed thread saved, not from scratch, and stays exact', async () => {
    const first = thread();
    expect(first.count()).toBe(ENTRIES);
    expect(first.reads.whole).toBe(1);

    // A thread started later: new entries since, one still queued for the index.
    await send(COMMON, 'saved-1');
    await indexAll(db);
    await send('Parcel-Lyon', 'saved-2');
    const next = thread();
    expect(next.count()).toBe(ENTRIES + 2);
    expect(next.count()).toBe(scanned());
    expect(next.reads.whole).toBe(0);
    // A thread that saves nothing counts from scratch.
    const unsaved = thread(false);
    expect(unsaved.count()).toBe(ENTRIES + 2);
    expect(unsaved.reads.whole).toBe(1);
    // A range is a search of its own, saved apart.
    const from = start + 1_000 * 60_000;
    expect(thread().count({ q: COMMON, from })).toBe(ENTRIES - 1_000 + 2);
    expect(thread().count({ q: COMMON, from })).toBe(ENTRIES - 1_000 + 2);

    // Named by a digest: the text searched for is not in the file.
    const rows = savedRows();
    expect(rows).toHaveLength(2);
    for (const { search, kept } of rows) {
      expect(search).toMatch(/^[0-9a-f]{64}$/);
      expect(kept.toLowerCase()).not.toContain('parcel');
    }
  });

  it('stays exact from a saved total through a prune, a rowid given again, and a row unreadable', async () => {
    await indexAll(db);
    thread().count();
    const prune = await createRetention(db).prune(
      { days: 7, minPerWebhook: 0, dedupeWindowMs: 7 * DAY_MS },
      Date.now(),
    );
    expect(prune).toBeGreaterThan(0);
    const pruned = thread();
    expect(pruned.count()).toBe(scanned());
    expect(pruned.count()).toBeLessThanOrEqual(ENTRIES + 2 - PAST_RETENTION);

    // The log's newest entry deleted and its rowid given to an entry without the text.
    const newest = db
      .prepare('SELECT rowid AS rowid FROM deliveries ORDER BY rowid DESC LIMIT 1')
      .pluck()
      .get() as number;
    const before = scanned();
    db.prepare('DELETE FROM deliveries WHERE rowid = ?').run(newest);
    const [added] = seedLog(db, ours.uid, 1, {
      bodyOf: () => '{"note":"nothing"}',
      labelOf: () => 'Accepted',
    });
    expect(db.prepare('SELECT rowid FROM deliveries WHERE id = ?').pluck().get(added)).toBe(newest);
    await indexAll(db);
    const reused = thread();
    expect(reused.count()).toBe(scanned());
    expect(reused.count()).toBe(before - 1);
    expect(reused.reads.whole).toBe(1);

    // A saved row that cannot be read back is counted from scratch, exactly.
    const index = new Database(totalsFileOf(db.name));
    index.prepare(`UPDATE search_totals SET kept = '{"parts":"torn'`).run();
    index.close();
    const torn = thread();
    expect(torn.count()).toBe(scanned());
    expect(torn.reads.whole).toBe(1);
  });

  it("saves the relay's totals from its read thread, and a relay started again answers them exactly", async () => {
    const listed = await relay.call('deliveries.list', { uid: ours.uid, q: 'lyon', limit: 5 });
    expect(listed.total).toBe(
      db
        .prepare(
          `SELECT count(*) FROM deliveries d JOIN payloads p ON p.delivery_id = d.id
           WHERE d.webhook_uid = ? AND instr(lower(CAST(p.body AS TEXT)), 'lyon') > 0`,
        )
        .pluck()
        .get(ours.uid),
    );
    const rows = savedRows();
    expect(rows).toHaveLength(3);
    expect(rows.map((r) => r.kept).join()).not.toContain('lyon');
    // Owner-only, as the relay's other files.
    const files = readdirSync(dataDir).filter((name) => name.startsWith('hookport.totals.'));
    expect(files.sort()).toEqual([
      'hookport.totals.sqlite',
      'hookport.totals.sqlite-shm',
      'hookport.totals.sqlite-wal',
    ]);
    for (const name of files) expect(statSync(join(dataDir, name)).mode & 0o777, name).toBe(0o600);

    await relay.stop();
    relay = await startTestRelay({ dataDir });
    db = sqliteDbOf(relay.core.store);
    ours.ingressUrl = ours.ingressUrl.replace(/^http:\/\/[^/]+/, relay.ingressUrl);
    await send(COMMON, 'after-restart');
    const again = await relay.call('deliveries.list', { uid: ours.uid, q: 'lyon', limit: 5 });
    expect(again.total).toBe(listed.total! + 1);
  });
});
