import type { Db } from './db.js';

/** One segment of an FTS5 index: its leaf pages, and (structure V2) the entries it holds. */
export interface Fts5Segment {
  id: number;
  pages: number;
}

/** One level: its segments, and how many of them an incremental merge in progress is taking. */
export interface Fts5Level {
  merging: number;
  segments: Fts5Segment[];
}

/** FTS5's structure record lives in the `_data` table at this rowid (FTS5_STRUCTURE_ROWID). */
const STRUCTURE_ROWID = 10;
/** The marker after the cookie of a structure with contentless_delete fields (fts5_index.c). */
const V2 = [0xff, 0x00, 0x00, 0x01];

/** SQLite's varint (big-endian groups of 7 bits; a ninth byte gives 8), as a JS number. */
function varint(data: Uint8Array, at: number): [value: number, next: number] {
  let value = 0;
  for (let i = 0; i < 8; i++) {
    const byte = data[at + i]!;
    value = value * 128 + (byte & 0x7f);
    if (byte < 0x80) return [value, at + i + 1];
  }
  return [value * 256 + data[at + 8]!, at + 9];
}

/**
 * The levels of the index `table` (read from its structure record, as FTS5 itself decodes it in
 * `fts5StructureDecode`), or null when it has none yet.
 */
export function readStructure(db: Db, table: string): Fts5Level[] | null {
  const row = db
    .prepare<[number], Buffer>(`SELECT block FROM "${table}_data" WHERE id = ?`)
    .pluck()
    .get(STRUCTURE_ROWID);
  if (!row || row.length < 4) return null;
  const data = new Uint8Array(row);
  let at = 4; // the cookie
  const v2 = V2.every((byte, i) => data[at + i] === byte);
  if (v2) at += 4;
  let levels: number;
  [levels, at] = varint(data, at);
  [, at] = varint(data, at); // segments, in all
  [, at] = varint(data, at); // the write counter
  const result: Fts5Level[] = [];
  for (let level = 0; level < levels; level++) {
    let merging: number;
    let count: number;
    [merging, at] = varint(data, at);
    [count, at] = varint(data, at);
    const segments: Fts5Segment[] = [];
    for (let s = 0; s < count; s++) {
      let id: number;
      let first: number;
      let last: number;
      [id, at] = varint(data, at);
      [first, at] = varint(data, at);
      [last, at] = varint(data, at);
      // origin1, origin2, tombstone pages, tombstone entries, entries
      if (v2) for (let f = 0; f < 5; f++) [, at] = varint(data, at);
      segments.push({ id, pages: last - first + 1 });
    }
    result.push({ merging, segments });
  }
  return result;
}

/**
 * The level FTS5's next `'merge'` step would take (`fts5IndexMerge`: a level with a merge in
 * progress, else the one with the most segments, if it has at least `usermerge`) and its input
 * pages, or null when it would take none of those (it then looks for a level whose rows are
 * mostly deleted: a delete-merge).
 */
export function nextMerge(
  levels: Fts5Level[],
  usermerge: number,
): { level: number; pages: number } | null {
  let best = -1;
  let most = 0;
  for (const [i, level] of levels.entries()) {
    if (level.merging > 0) {
      if (level.merging > most) [best, most] = [i, usermerge];
      break;
    }
    if (level.segments.length > most) [best, most] = [i, level.segments.length];
  }
  if (best < 0 || most < usermerge) return null;
  const level = levels[best]!;
  const inputs = level.merging > 0 ? level.segments.slice(0, level.merging) : level.segments;
  return { level: best, pages: inputs.reduce((sum, segment) => sum + segment.pages, 0) };
}

/** The lowest level holding a segment of more than `pages` pages (Infinity: none). */
export function levelOfSegmentOver(levels: Fts5Level[], pages: number): number {
  const at = levels.findIndex((level) => level.segments.some((segment) => segment.pages > pages));
  return at < 0 ? Infinity : at;
}
