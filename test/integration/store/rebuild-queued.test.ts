import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../src/main/store/sqlite/db.js';
import { createDeliveriesRepository } from '../../../src/main/store/sqlite/deliveries-repo.js';
import { createSearchIndex } from '../../../src/main/store/sqlite/search-index.js';
import { seedLog } from '../../support/seed-log.js';
import { writeVersion16File } from '../../support/version-16-file.js';

const UID = 'wh_rebuild_queued';
const ENTRIES = 3_000;
/**
 * Left queued by the version-16 relay: every fifth entry of the newer half (large entries wait
 * for a quiet moment while smaller, newer ones go past them), all inside the rebuild's range.
 * The newest entry (rowid ENTRIES) is in the old index, so that its rowid can be given again.
 */
const leftQueued = (rowid: number): boolean =>
  rowid >= ENTRIES / 2 && rowid % 5 === 0 && rowid < ENTRIES;
const QUEUED = ENTRIES / 2 / 5;
const SEARCHES = ['heron', 'robin', 'lorem', 'albatross', '"n":2345,', '"n":1599,'] as const;

/**
 * A relay migrated from version 16 with entries still queued for its old index: the new index
 * file takes them from the queue ahead of the rebuild (search-index.ts), so the queue that every
 * search scans row by row empties long before the rebuild ends. Searches and exact totals answer
 * the same throughout, nothing is indexed twice, and a restart mid-way loses nothing. One file
 * for the whole story.
 */
describe("a migrated relay's queued entries, indexed ahead of the rebuild", () => {
  let dir: string;
  let file: string;
  let db: Db;
  let index: ReturnType<typeof createSearchIndex>;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'hookport-rebuild-queued-'));
    file = join(dir, 'hookport.sqlite');
    writeVersion16File(file, UID, ENTRIES, leftQueued);
    db = openDatabase(file);
    index = createSearchIndex(db);
  });
  afterAll(() => {
    index?.close();
    if (db?.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const count = (sql: string): number => db.prepare<[], number>(sql).pluck().get()!;
  const rebuilt = (): number => count('SELECT upto FROM search.delivery_search_rebuilt');
  const legacy = (): number => count('SELECT upto FROM delivery_search_legacy');
  const queuedInRange = (): number =>
    count(`SELECT count(*) FROM delivery_search_pending
      WHERE delivery_rowid > (SELECT upto FROM search.delivery_search_rebuilt)
        AND delivery_rowid <= (SELECT upto FROM delivery_search_legacy)`);
  /** Entries the new index holds (FTS5 shows a rowid written twice once: see `indexed`). */
  const newRows = (): number =>
    count(`SELECT count(*) FROM search.delivery_search WHERE delivery_search MATCH '"lorem"'`);
  const aheadPastMark = (): number =>
    count(`SELECT count(*) FROM search.delivery_search_ahead
      WHERE delivery_rowid > (SELECT upto FROM search.delivery_search_rebuilt)`);
  const indexedWithPayload = (): number =>
    count(`SELECT count(*) FROM deliveries d JOIN payloads p ON p.delivery_id = d.id
      WHERE instr(CAST(p.body AS TEXT), 'lorem') > 0 AND (d.rowid <= (SELECT upto FROM search.delivery_search_rebuilt)
         OR d.rowid IN (SELECT delivery_rowid FROM search.delivery_search_ahead)
         OR d.rowid > (SELECT upto FROM delivery_search_legacy))`);

  /** What the log holds, read without any index: each search's page and total. */
  const truth = () => {
    const matching = db.prepare<[string, string], string>(`
      SELECT d.id FROM deliveries d JOIN payloads p ON p.delivery_id = d.id
      WHERE d.webhook_uid = ? AND instr(CAST(p.body AS TEXT), ?) > 0 ORDER BY d.id DESC`);
    return Object.fromEntries(
      SEARCHES.map((q) => {
        const ids = matching.pluck().all(UID, q);
        return [q, { page: ids.slice(0, 200), total: ids.length }];
      }),
    );
  };
  let repo: ReturnType<typeof createDeliveriesRepository>;
  const answers = () =>
    Object.fromEntries(
      SEARCHES.map((q) => [
        q,
        {
          page: repo.page(UID, 200, null, { q }).items.map((d) => d.id),
          total: repo.count(UID, { q }),
        },
      ]),
    );

  let expected: ReturnType<typeof truth>;
  /** Entries written into the new index, over the whole story: each once, never twice. */
  let indexed = 0;
  const slice = (budgetMs: number): void => {
    indexed += index.indexSome(budgetMs).indexed;
  };

  it('answers exactly before the rebuild, with entries queued inside its range', () => {
    expect(legacy()).toBe(ENTRIES);
    expect(rebuilt()).toBe(0);
    // Since the upgrade: a payload dropped (the old index keeps its text), and the newest entry
    // deleted, its rowid given to a new one (the old index keeps the old entry's text there too).
    const ids = db.prepare<[], string>('SELECT id FROM deliveries ORDER BY rowid').pluck().all();
    db.prepare('DELETE FROM payloads WHERE delivery_id = ?').run(ids[2_103]); // a robin
    db.prepare('DELETE FROM deliveries WHERE id = ?').run(ids[ENTRIES - 1]); // a robin too
    db.prepare('DELETE FROM payloads WHERE delivery_id = ?').run(ids[ENTRIES - 1]);
    seedLog(db, UID, 1, { bodyOf: () => '{"bird":"albatross"}', labelOf: () => 'Accepted' });
    expect(count(`SELECT max(rowid) FROM deliveries`)).toBe(ENTRIES);

    expect(queuedInRange()).toBe(QUEUED + 2);
    repo = createDeliveriesRepository(db);
    expected = truth();
    expect(expected.robin!.total).toBe(ENTRIES / 4 - 2);
    expect(expected.albatross!.total).toBe(1);
    expect(answers()).toEqual(expected);
  });

  it("empties the range's queue before the rebuild is a tenth done, answering the same", () => {
    let slices = 0;
    while (queuedInRange() > 0) {
      slice(1);
      if (++slices % 10 === 0) expect(answers()).toEqual(expected);
    }
    expect(rebuilt()).toBeLessThan(ENTRIES / 10);
    expect(answers()).toEqual(expected);
    // Each entry indexed once: the queued ones ahead, the rebuilt ones up to the mark.
    expect(newRows()).toBe(indexedWithPayload());
    expect(indexed).toBe(rebuilt() + aheadPastMark());
  });

  it('loses nothing to a crash between a slice and its dequeue, nor to a restart', () => {
    // The latest entries indexed ahead queued again, as a crash before the dequeue leaves them.
    const ahead = count('SELECT count(*) FROM search.delivery_search_ahead');
    expect(ahead).toBe(QUEUED + 2);
    db.exec(`INSERT INTO delivery_search_pending (delivery_rowid)
      SELECT delivery_rowid FROM search.delivery_search_ahead ORDER BY delivery_rowid DESC LIMIT 20`);
    expect(answers()).toEqual(expected);

    index.close();
    db.close();
    db = openDatabase(file);
    index = createSearchIndex(db);
    repo = createDeliveriesRepository(db);
    expect(answers()).toEqual(expected);

    // The queued again are taken off the queue without being indexed a second time.
    while (queuedInRange() > 0) slice(1);
    expect(newRows()).toBe(indexedWithPayload());
    expect(indexed).toBe(rebuilt() + aheadPastMark());
    expect(answers()).toEqual(expected);
  });

  it('passes the entries indexed ahead by, answering the same until and after the rebuild ends', () => {
    // A payload dropped after its entry was indexed ahead (2500 was queued; a robin): its rows go,
    // and it is indexed again, without the payload, still found by its other fields.
    expect(rebuilt()).toBeLessThan(2_500);
    db.exec(
      'DELETE FROM payloads WHERE delivery_id = (SELECT id FROM deliveries WHERE rowid = 2500)',
    );
    expected = truth();
    expect(expected.robin!.total).toBe(ENTRIES / 4 - 3);
    expect(answers()).toEqual(expected);
    const byIdentity = (): number => repo.count(UID, { q: 'seed-2499' });
    expect(byIdentity()).toBe(1);

    let slices = 0;
    while (rebuilt() < legacy()) {
      slice(2);
      if (++slices % 25 === 0) {
        expect(answers()).toEqual(expected);
        expect(newRows()).toBe(indexedWithPayload());
      }
    }
    expect(index.pending()).toBe(0);
    expect(newRows()).toBe(ENTRIES - 3); // all but the payloads dropped and the new entry's
    // Each rowid once (the reused one's old entry never was), and 2500 again after its drop.
    expect(indexed).toBe(ENTRIES + 1);
    expect(byIdentity()).toBe(1);
    expect(count('SELECT count(*) FROM search.delivery_search_ahead')).toBe(0);
    expect(answers()).toEqual(expected);

    // The old index given back (legacy-index-drop.ts): the new one answers alone, the same.
    for (let more = true; more;) more = index.dropLegacySome().more;
    expect(legacy()).toBe(0);
    expect(answers()).toEqual(expected);
    expect(byIdentity()).toBe(1);
  });
});
