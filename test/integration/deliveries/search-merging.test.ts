import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../src/main/store/sqlite/db.js';
import { createDeliveriesRepository } from '../../../src/main/store/sqlite/deliveries-repo.js';
import { createSearchIndex } from '../../../src/main/store/sqlite/search-index.js';
import { seedLog } from '../../support/seed-log.js';

const UID = 'wh_merging';
const ENTRIES = 120;

/**
 * The SQLite index merges its segments in slices of its own (search-index.ts), never inside the
 * commit of an indexing slice: each small slice leaves a segment, FTS5's crisis merge keeps a
 * level under 64 of them, and the quiet slices' merges bring them down, while every search
 * answers the same throughout.
 */
describe('the search index merges apart from its indexing slices', () => {
  let dir: string;
  let db: Db;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hookport-merging-'));
    db = openDatabase(join(dir, 'hookport.sqlite'));
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const segments = (): number =>
    db
      .prepare<[], number>('SELECT count(DISTINCT segid) FROM search.delivery_search_idx')
      .pluck()
      .get()!;
  const found = (q: string): string[] =>
    createDeliveriesRepository(db)
      .page(UID, 200, null, { q })
      .items.map((d) => d.identity ?? '');

  it('leaves the merging to quiet slices, and searches find the same before and after', () => {
    seedLog(db, UID, ENTRIES, {
      bodyOf: (i) =>
        JSON.stringify({ order: `ord-${i}`, colour: ['teal', 'ochre', 'umber'][i % 3] }),
      labelOf: () => 'Accepted',
    });
    const index = createSearchIndex(db);
    // One entry per slice, as the busy slices take them: a segment each.
    for (let i = 0; i < ENTRIES; i++) expect(index.indexSome(0).indexed).toBe(1);
    const unmerged = segments();
    // More than automatic merging (4 to a level) would leave; fewer than one per slice.
    expect(unmerged).toBeGreaterThan(8);
    expect(unmerged).toBeLessThan(ENTRIES);
    const before = { ochre: found('ochre'), one: found('ord-77"') };
    expect(before.ochre).toHaveLength(ENTRIES / 3);
    expect(before.one).toEqual(['seed-77']);

    while (index.mergeSome(1));
    expect(segments()).toBeLessThan(unmerged);
    expect(index.mergeSome(1)).toBe(false);
    expect({ ochre: found('ochre'), one: found('ord-77"') }).toEqual(before);
  });

  it("writes a slice's entries as one segment", () => {
    seedLog(db, UID, ENTRIES, { labelOf: () => 'Accepted' });
    const index = createSearchIndex(db);
    expect(index.indexSome(60_000).indexed).toBe(ENTRIES);
    // One segment a statement, as an INSERT … SELECT's savepoint flushed them, made 120 segments
    // (and merged by FTS5 every 64th flush).
    expect(segments()).toBe(1);
    expect(found('"n":77}')).toEqual(['seed-77']);
  });

  it("never rewrites the index's largest segment inside a catch-up's slices", () => {
    const body = (i: number): string => JSON.stringify({ order: `ord-${i}`, note: 'Tromsø' });
    seedLog(db, UID, 2_000, { bodyOf: body, labelOf: () => 'Accepted' });
    const index = createSearchIndex(db);
    expect(index.indexSome(60_000).indexed).toBe(2_000);
    const largest = db
      .prepare<[], number>(
        `SELECT segid FROM search.delivery_search_idx GROUP BY segid ORDER BY count(*) DESC LIMIT 1`,
      )
      .pluck()
      .get()!;
    const segmentIds = db
      .prepare<[], number>('SELECT DISTINCT segid FROM search.delivery_search_idx')
      .pluck();
    // A restart's queue, one entry a slice: at FTS5's default crisis merge (16), the level that
    // holds the large segment was merged whole by the 16th slice's flush, the large one with it.
    seedLog(db, UID, 40, { bodyOf: (i) => body(2_000 + i), labelOf: () => 'Accepted' });
    for (let i = 0; i < 40; i++) {
      expect(index.indexSome(0).indexed).toBe(1);
      expect(segmentIds.all()).toContain(largest);
    }
    expect(found('Tromsø').length).toBe(200);
    while (index.mergeSome(1));
    expect(segmentIds.all()).not.toContain(largest);
    expect(segments()).toBeLessThan(4);
    expect(found('ord-2039"')).toEqual(['seed-39']);
  });
});
