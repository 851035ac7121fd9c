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
 * The SQLite index merges its segments apart from the commits of its indexing slices
 * (search-index.ts): each small slice leaves a segment; during a catch-up (the queue never
 * empty) a merge step follows the slices once a level may hold 4 new segments, so no level fills
 * to FTS5's crisis merge (16, a whole level merged in one commit); the quiet slices' merges do
 * the rest, while every search answers the same throughout.
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
    db.prepare<[], number>('SELECT count(DISTINCT segid) FROM delivery_search_idx').pluck().get()!;
  const found = (q: string): string[] =>
    createDeliveriesRepository(db)
      .page(UID, 200, null, { q })
      .items.map((d) => d.identity ?? '');

  it('merges as a catch-up goes, then in quiet slices, and searches find the same', () => {
    seedLog(db, UID, ENTRIES, {
      bodyOf: (i) =>
        JSON.stringify({ order: `ord-${i}`, colour: ['teal', 'ochre', 'umber'][i % 3] }),
      labelOf: () => 'Accepted',
    });
    const index = createSearchIndex(db);
    // One entry per slice, as the busy slices take them: a segment each.
    for (let i = 0; i < ENTRIES; i++) expect(index.indexSome(0).indexed).toBe(1);
    const unmerged = segments();
    // Without the catch-up's merge steps more than 8 were left, levels filling towards 16.
    expect(unmerged).toBeGreaterThan(0);
    expect(unmerged).toBeLessThanOrEqual(8);
    const before = { ochre: found('ochre'), one: found('ord-77"') };
    expect(before.ochre).toHaveLength(ENTRIES / 3);
    expect(before.one).toEqual(['seed-77']);

    while (index.mergeSome(1));
    expect(segments()).toBeLessThanOrEqual(unmerged);
    expect(index.mergeSome(1)).toBe(false);
    expect({ ochre: found('ochre'), one: found('ord-77"') }).toEqual(before);
  });
});
