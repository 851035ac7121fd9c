import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../src/main/store/sqlite/db.js';
import { createDeliveriesRepository } from '../../../src/main/store/sqlite/deliveries-repo.js';
import { DROP_ROWS } from '../../../src/main/store/sqlite/legacy-index-drop.js';
import { createSearchIndex } from '../../../src/main/store/sqlite/search-index.js';
import { seedLog } from '../../support/seed-log.js';
import { writeVersion16File } from '../../support/version-16-file.js';

const UID = 'wh_legacy_drop';
const ENTRIES = 3_000;

/**
 * A relay migrated from version 16 gives its old in-file index back once the index file has been
 * rebuilt past it (legacy-index-drop.ts): searches answer the same before, during and after, and
 * the old index's rows go a bounded number of rows per transaction. One file for the whole story.
 */
describe("a migrated relay's old search index, given back", () => {
  let dir: string;
  let file: string;
  let db: Db;
  let index: ReturnType<typeof createSearchIndex>;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'hookport-legacy-drop-'));
    file = join(dir, 'hookport.sqlite');
    writeVersion16File(file, UID, ENTRIES);
    db = openDatabase(file);
    index = createSearchIndex(db);
  });
  afterAll(() => {
    index?.close();
    if (db?.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const answers = () => {
    const repo = createDeliveriesRepository(db);
    const ids = (q: string) => repo.page(UID, 200, null, { q }).items.map((d) => d.id);
    return {
      heron: ids('heron'),
      heronTotal: repo.count(UID, { q: 'heron' }),
      one: ids('"n":1234,'),
      none: repo.count(UID, { q: 'albatross' }),
      firstPage: repo.page(UID, 50, null, {}).items.map((d) => d.id),
    };
  };
  const tables = (): string[] =>
    db
      .prepare<[], string>(
        "SELECT name FROM sqlite_schema WHERE name LIKE 'delivery_search%' ORDER BY name",
      )
      .pluck()
      .all();
  const oldHits = (): number =>
    db
      .prepare<[], number>(
        `SELECT count(*) FROM main.delivery_search WHERE delivery_search MATCH '"heron"'`,
      )
      .pluck()
      .get()!;
  const rebuilt = (): number =>
    db.prepare<[], number>('SELECT upto FROM search.delivery_search_rebuilt').pluck().get()!;

  let before: ReturnType<typeof answers>;

  it('answers from the old index before the rebuild, and the same halfway through it', () => {
    before = answers();
    expect(before.heronTotal).toBe(ENTRIES / 4);
    expect(before.one).toHaveLength(1);
    expect(before.none).toBe(0);
    expect(oldHits()).toBe(ENTRIES / 4);
    // Nothing is given back while the old index still answers for entries.
    expect(index.dropLegacySome()).toEqual({ step: 'none', rows: 0, more: false });

    while (rebuilt() < ENTRIES / 2) index.indexSome(5);
    expect(rebuilt()).toBeLessThan(ENTRIES);
    expect(index.dropLegacySome().step).toBe('none');
    expect(answers()).toEqual(before);
  });

  it('sets the old index aside once rebuilt, answering the same while its rows go', () => {
    while (index.pending() > 0) index.indexSome(50);
    const freeBefore = db.pragma('freelist_count', { simple: true }) as number;

    expect(index.dropLegacySome().step).toBe('set-aside');
    expect(oldHits()).toBe(0); // the name now holds an empty index
    expect(answers()).toEqual(before);

    const slices: { step: string; rows: number }[] = [];
    for (let more = true; more;) {
      const slice = index.dropLegacySome();
      slices.push(slice);
      more = slice.more;
      if (slices.length === 5) expect(answers()).toEqual(before);
    }
    expect(slices.at(-1)!.step).toBe('dropped');
    for (const { step, rows } of slices) {
      expect(rows).toBeLessThanOrEqual(step === 'data' ? DROP_ROWS.data : DROP_ROWS.small);
    }
    // Several slices of the old pages, each bounded: never one transaction for all of them.
    expect(slices.filter((s) => s.step === 'data').length).toBeGreaterThan(3);
    expect(tables()).not.toContain('delivery_search_legacy_dropped');
    expect(tables().filter((t) => t.includes('dropped'))).toEqual([]);
    expect(db.pragma('freelist_count', { simple: true })).toBeGreaterThan(freeBefore);
    expect(answers()).toEqual(before);
  });

  it('stays given back: nothing more to do, and new entries are found', () => {
    expect(index.dropLegacySome()).toEqual({ step: 'none', rows: 0, more: false });
    expect(db.prepare('SELECT upto FROM delivery_search_legacy').pluck().get()).toBe(0);
    seedLog(db, UID, 1, { bodyOf: () => '{"bird":"albatross"}', labelOf: () => 'Accepted' });
    expect(createDeliveriesRepository(db).count(UID, { q: 'albatross' })).toBe(1);
    while (index.pending() > 0) index.indexSome(50);
    expect(createDeliveriesRepository(db).count(UID, { q: 'albatross' })).toBe(1);
    expect(createDeliveriesRepository(db).count(UID, { q: 'heron' })).toBe(ENTRIES / 4);
  });
});
