import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../src/main/store/sqlite/db.js';
import { createDeliveriesRepository } from '../../../src/main/store/sqlite/deliveries-repo.js';
import { createSearchIndex } from '../../../src/main/store/sqlite/search-index.js';
import { seedLog } from '../../support/seed-log.js';

const UID = 'wh_large_entries';
const LIMIT = 8 * 1024;

/** A payload of about `bytes`, with `word` near its end (a search must read all of it). */
function payloadOf(bytes: number, word: string): string {
  const filler = Array.from({ length: Math.ceil(bytes / 40) }, (_, i) => `item ${i} of the batch`);
  return JSON.stringify({ filler, last: word });
}

/**
 * The SQLite index's slices with a size limit (the writer thread's slices while deliveries
 * arrive): large payloads wait, smaller ones go past them, and a search finds both meanwhile.
 */
describe('indexing around large payloads', () => {
  let dir: string;
  let db: Db;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hookport-large-'));
    db = openDatabase(join(dir, 'hookport.sqlite'));
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const indexedMatching = (word: string): number =>
    db
      .prepare<[string], number>(
        'SELECT count(*) FROM search.delivery_search WHERE delivery_search MATCH ?',
      )
      .pluck()
      .get(`"${word}"`)!;
  const search = (q: string): string[] =>
    createDeliveriesRepository(db)
      .page(UID, 50, null, { q })
      .items.map((d) => d.identity ?? '');

  // Small, large, small, large, small: every one Accepted, so each keeps its payload.
  const bodies = [
    payloadOf(1_000, 'smallone'),
    payloadOf(64 * 1024, 'largeone'),
    payloadOf(2_000, 'smalltwo'),
    payloadOf(40 * 1024, 'largetwo'),
    payloadOf(LIMIT - 100, 'smallthree'),
  ];
  const seed = (): string[] =>
    seedLog(db, UID, bodies.length, { bodyOf: (i) => bodies[i]!, labelOf: () => 'Accepted' });

  it('indexes the small entries past the large ones, which a search still finds', () => {
    seed();
    const index = createSearchIndex(db);

    expect(index.indexSome(10_000, LIMIT)).toEqual({
      indexed: 3,
      more: false,
      deferred: true,
      forgotten: 0,
    });
    expect(index.pending()).toBe(2);
    for (const word of ['smallone', 'smalltwo', 'smallthree'])
      expect(indexedMatching(word)).toBe(1);
    expect(indexedMatching('largeone')).toBe(0);
    // Still queued, so the search scans them.
    expect(search('largeone')).toEqual(['seed-1']);
    expect(search('largetwo')).toEqual(['seed-3']);

    // A slice without the limit (a quiet relay's) takes them.
    expect(index.indexSome(10_000)).toEqual({
      indexed: 2,
      more: false,
      deferred: false,
      forgotten: 0,
    });
    expect(index.pending()).toBe(0);
    expect(indexedMatching('largeone')).toBe(1);
    expect(search('largetwo')).toEqual(['seed-3']);
  });

  it('goes on past what it passed over: entries arriving later are indexed, the large ones still wait', () => {
    seed();
    const index = createSearchIndex(db);
    index.indexSome(10_000, LIMIT);

    const later = [payloadOf(500, 'latersmall'), payloadOf(30 * 1024, 'laterlarge')];
    seedLog(db, UID, later.length, {
      bodyOf: (i) => later[i]!,
      labelOf: () => 'Accepted',
      atOf: (i) => Date.now() + i,
    });
    expect(index.indexSome(10_000, LIMIT)).toEqual({
      indexed: 1,
      more: false,
      deferred: true,
      forgotten: 0,
    });
    expect(indexedMatching('latersmall')).toBe(1);
    expect(index.pending()).toBe(3);
    expect(search('laterlarge')).toHaveLength(1);
  });

  it('says nothing was passed over when no entry is too large', () => {
    seedLog(db, UID, 3, {
      bodyOf: (i) => payloadOf(1_000, `word${i}x`),
      labelOf: () => 'Accepted',
    });
    expect(createSearchIndex(db).indexSome(10_000, LIMIT)).toEqual({
      indexed: 3,
      more: false,
      deferred: false,
      forgotten: 0,
    });
  });

  it("says how many entries' rows it took out (their payloads dropped), which a search then no longer reads", () => {
    seedLog(db, UID, 3, {
      bodyOf: (i) => payloadOf(1_000, `gone${i}x`),
      labelOf: () => 'Accepted',
    });
    const index = createSearchIndex(db);
    index.indexSome(10_000, LIMIT);
    db.prepare(
      `DELETE FROM payloads WHERE delivery_id IN
         (SELECT id FROM deliveries WHERE identity IN ('seed-0', 'seed-2'))`,
    ).run();
    expect(indexedMatching('gone0x')).toBe(1);
    // Taken out, then indexed again without their payloads.
    expect(index.indexSome(10_000)).toEqual({
      indexed: 2,
      more: false,
      deferred: false,
      forgotten: 2,
    });
    expect(indexedMatching('gone0x')).toBe(0);
    expect(indexedMatching('gone1x')).toBe(1);
    expect(search('gone')).toEqual(['seed-1']);
  });

  it('stops at its budget and goes on from there in the next slice', () => {
    const small = Array.from({ length: 200 }, (_, i) => payloadOf(4_000, `many${i}x`));
    seedLog(db, UID, small.length, { bodyOf: (i) => small[i]!, labelOf: () => 'Accepted' });
    const index = createSearchIndex(db);
    const first = index.indexSome(0, LIMIT);
    expect(first).toEqual({ indexed: 1, more: true, deferred: false, forgotten: 0 });
    let slices = 1;
    while (index.pending() > 0 && slices < 1_000) {
      index.indexSome(0, LIMIT);
      slices++;
    }
    expect(index.pending()).toBe(0);
    expect(slices).toBe(200);
  });
});
