import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  levelOfSegmentOver,
  nextMerge,
  readStructure,
  type Fts5Level,
} from '../../../src/main/store/sqlite/fts5-structure.js';

/**
 * The catch-up's merge steps (search-index.ts) read FTS5's structure record to see which level
 * a 'merge' step would take: read here from a real trigram index, shaped as the relay's.
 */
describe("FTS5's structure, as the catch-up's merges read it", () => {
  let db: Database.Database;
  beforeEach(() => {
    db = new Database(':memory:');
    db.exec(`
      CREATE VIRTUAL TABLE s USING fts5(body, content = '', contentless_delete = 1, tokenize = 'trigram');
      INSERT INTO s (s, rank) VALUES ('automerge', 0);
      INSERT INTO s (s, rank) VALUES ('crisismerge', 16);`);
  });
  afterEach(() => db.close());

  const insert = (rowid: number): void => {
    db.prepare('INSERT INTO s (rowid, body) VALUES (?, ?)').run(rowid, `{"order":"ord-${rowid}"}`);
  };

  it('has no levels before anything is indexed', () => {
    const levels = readStructure(db, 's') ?? [];
    expect(levels.every((level) => level.segments.length === 0)).toBe(true);
    expect(nextMerge(levels, 4)).toBeNull();
  });

  it('reads a segment per transaction on level 0, and the level a merge step would take', () => {
    for (let i = 1; i <= 3; i++) insert(i);
    const three = readStructure(db, 's')!;
    expect(three[0]!.segments).toHaveLength(3);
    expect(three[0]!.segments.every((s) => s.pages >= 1)).toBe(true);
    // Fewer than 'usermerge' (4): FTS5 would look for a delete-merge instead.
    expect(nextMerge(three, 4)).toBeNull();

    insert(4);
    const four = readStructure(db, 's')!;
    const pages = four[0]!.segments.reduce((sum, s) => sum + s.pages, 0);
    expect(nextMerge(four, 4)).toEqual({ level: 0, pages });

    db.prepare("INSERT INTO s (s, rank) VALUES ('merge', 16)").run();
    const merged = readStructure(db, 's')!;
    expect(merged[0]?.segments.length ?? 0).toBe(0);
    expect(merged[1]!.segments).toHaveLength(1);
  });

  it('follows a merge in progress first, and a level with the most segments otherwise', () => {
    const level = (segments: number[], merging = 0): Fts5Level => ({
      merging,
      segments: segments.map((pages, id) => ({ id, pages })),
    });
    expect(nextMerge([level([1, 1, 1, 1, 1]), level([9, 9, 9, 9, 9, 9])], 4)).toEqual({
      level: 1,
      pages: 54,
    });
    expect(nextMerge([level([1, 1, 1, 1]), level([500, 600], 1)], 4)).toEqual({
      level: 0,
      pages: 4,
    });
    expect(nextMerge([level([1]), level([500, 600, 700], 2)], 4)).toEqual({
      level: 1,
      pages: 1100,
    });
    const week = [level([1, 1]), level([17, 17, 21, 18]), level([1062, 1035]), level([830_061])];
    expect(nextMerge(week, 4)).toEqual({ level: 1, pages: 73 });
    expect(levelOfSegmentOver(week, 16_384)).toBe(3);
    expect(levelOfSegmentOver(week.slice(0, 3), 16_384)).toBe(Infinity);
  });
});
