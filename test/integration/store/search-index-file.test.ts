import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { schemaVersions } from '../../../src/main/store/schema-versions.js';
import { openDatabase, type Db } from '../../../src/main/store/sqlite/db.js';
import { createDeliveriesRepository } from '../../../src/main/store/sqlite/deliveries-repo.js';
import { runMigrations } from '../../../src/main/store/sqlite/migrate.js';
import { createSearchIndex, indexRows } from '../../../src/main/store/sqlite/search-index.js';
import { indexAll } from '../../support/index-all.js';
import { seedLog } from '../../support/seed-log.js';

const UID = 'wh_index_file';
const BIRDS = ['kestrel', 'osprey', 'heron'] as const;

/** Entry i names one bird (i % 3), every one Accepted so each keeps its payload. */
const seedBirds = (db: Db, count: number): string[] =>
  seedLog(db, UID, count, {
    bodyOf: (i) => JSON.stringify({ n: i, bird: BIRDS[i % 3] }),
    labelOf: () => 'Accepted',
  });

/**
 * The trigram index in a file of its own (migration 017): written by the index thread, attached
 * to the relay's connections for searches, which stay exact while its queues are not yet done.
 */
describe('the search index in its own file', () => {
  let dir: string;
  let file: string;
  let db: Db;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hookport-index-file-'));
    file = join(dir, 'hookport.sqlite');
  });
  afterEach(() => {
    if (db?.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const found = (q: string): string[] =>
    createDeliveriesRepository(db)
      .page(UID, 200, null, { q })
      .items.map((d) => d.identity ?? '')
      .sort();
  const counted = (q: string): number => createDeliveriesRepository(db).count(UID, { q });
  const indexRowsMatching = (q: string): number =>
    db
      .prepare<[string], number>(
        'SELECT count(*) FROM search.delivery_search WHERE delivery_search MATCH ?',
      )
      .pluck()
      .get(`"${q}"`)!;
  /** As retention deletes: each entry, then its payload, in one transaction. */
  const prune = (ids: string[]): void =>
    db.transaction(() => {
      for (const id of ids) {
        db.prepare('DELETE FROM deliveries WHERE id = ?').run(id);
        db.prepare('DELETE FROM payloads WHERE delivery_id = ?').run(id);
      }
    })();
  const queued = (table: string): number =>
    db.prepare<[], number>(`SELECT count(*) FROM ${table}`).pluck().get()!;
  const stale = (): number =>
    db.prepare<[], number>('SELECT stale FROM delivery_search_gone').pluck().get()!;
  // FTS5 keeps a segment's tombstones in rows of its own in the data table: ids with bit 53 set
  // (FTS5_TOMBSTONE_ROWID in fts5_index.c).
  const tombstones = (): number =>
    db
      .prepare<[], number>(
        'SELECT count(*) FROM search.delivery_search_data WHERE (id >> 53) & 1 = 1',
      )
      .pluck()
      .get()!;

  it('is created beside the relay file, owner-only, and the queue drains into it', async () => {
    db = openDatabase(file);
    const indexFile = join(dir, 'hookport.search.sqlite');
    expect(existsSync(indexFile)).toBe(true);
    expect(statSync(indexFile).mode & 0o777).toBe(0o600);

    seedBirds(db, 30);
    expect(queued('delivery_search_pending')).toBe(30);
    expect(found('osprey')).toHaveLength(10);
    await indexAll(db);
    expect(queued('delivery_search_pending')).toBe(0);
    expect(indexRowsMatching('osprey')).toBe(10);
    expect(found('osprey')).toHaveLength(10);
    expect(counted('osprey')).toBe(10);
  });

  it('never finds nor counts a pruned entry, whose index rows stay until a purge', async () => {
    db = openDatabase(file);
    const ids = seedBirds(db, 30);
    await indexAll(db);
    prune(ids.slice(0, 9));
    // Nothing to forget: forgetting would put a tombstone in the segment that holds each row.
    expect(queued('delivery_search_forget')).toBe(0);
    expect(stale()).toBe(9);
    // Entries deleted before they were indexed left no rows: they are not counted.
    const unindexed = seedLog(db, 'wh_other', 3);
    for (const id of unindexed) db.prepare('DELETE FROM deliveries WHERE id = ?').run(id);
    expect(stale()).toBe(9);
    expect(indexRowsMatching('kestrel')).toBe(10);
    expect(found('kestrel')).toHaveLength(7);
    expect(counted('kestrel')).toBe(7);
    expect(found('seed-0"')).toEqual([]);

    // Far below a purge's share: merged, the rows stay, and still match nothing.
    const index = createSearchIndex(db);
    while (index.mergeSome(1_000));
    index.close();
    expect(indexRowsMatching('kestrel')).toBe(10);
    expect(found('kestrel')).toHaveLength(7);
    expect(counted('kestrel')).toBe(7);
  });

  it("forgets deleted entries' rows once they are a fifth of the index, and merges them away", async () => {
    db = openDatabase(file);
    const ids = seedBirds(db, 6_000);
    await indexAll(db);
    const mergeAll = (): void => {
      const index = createSearchIndex(db);
      while (index.mergeSome(1_000));
      index.close();
    };
    expect(indexRowsMatching('kestrel')).toBe(2_000);
    // 900 of 6,000: under a purge's 1,000 rows.
    prune(ids.slice(0, 900));
    mergeAll();
    expect(indexRowsMatching('kestrel')).toBe(2_000);
    // 1,100 of 6,000: under its fifth.
    prune(ids.slice(900, 1_100));
    mergeAll();
    expect(indexRowsMatching('kestrel')).toBe(2_000);
    expect(stale()).toBe(1_100);
    // 1,500 of 6,000: a quarter.
    prune(ids.slice(1_100, 1_500));
    mergeAll();
    expect(stale()).toBe(0);
    expect(indexRowsMatching('kestrel')).toBe(1_500);
    expect(found('kestrel')).toHaveLength(200);
    expect(counted('kestrel')).toBe(1_500);
    expect(counted('seed-1499')).toBe(0);
    expect(found('seed-1500')).toEqual(['seed-1500']);
    // The merges rewrote what held the forgotten rows: no tombstone is left.
    expect(tombstones()).toBe(0);
  });

  it("never matches a reused rowid with the old entry's text", async () => {
    db = openDatabase(file);
    const ids = seedBirds(db, 5); // the last one (seed-4) names the osprey
    await indexAll(db);
    const rowidOf = (id: string): number =>
      db.prepare<[string], number>('SELECT rowid FROM deliveries WHERE id = ?').pluck().get(id)!;
    const oldRowid = rowidOf(ids[4]!);
    prune([ids[4]!]);
    // SQLite gives the next entry the largest rowid + 1: the deleted entry's.
    const [reused] = seedLog(db, UID, 1, {
      bodyOf: () => '{"bird":"robin"}',
      labelOf: () => 'Accepted',
    });
    expect(rowidOf(reused!)).toBe(oldRowid);

    expect(found('osprey')).toEqual(['seed-1']);
    expect(counted('osprey')).toBe(1);
    expect(found('robin')).toEqual(['seed-0']);

    // The index thread forgets the old rows first, then indexes the new entry.
    const index = createSearchIndex(db);
    index.indexSome(1_000);
    index.close();
    expect(queued('delivery_search_forget') + queued('delivery_search_pending')).toBe(0);
    expect(indexRowsMatching('osprey')).toBe(1);
    expect(found('osprey')).toEqual(['seed-1']);
    expect(counted('osprey')).toBe(1);
    expect(found('robin')).toEqual(['seed-0']);
    expect(counted('robin')).toBe(1);
  });

  it('migrates a file whose index is inside it: its searches answer the same before and after the rebuild', async () => {
    // A file as version 16 left it, its index built there (as that relay's indexer did).
    const old = new Database(file);
    runMigrations(
      old,
      schemaVersions.filter((v) => v.version < 17),
    );
    seedBirds(old, 30);
    old.exec(`${indexRows('main')}; DELETE FROM delivery_search_pending`);
    old.close();

    db = openDatabase(file);
    const before = {
      heron: found('heron'),
      one: found('"n":4,'),
      total: counted('heron'),
    };
    expect(before.heron).toHaveLength(10);
    expect(before.one).toEqual(['seed-4']);
    expect(before.total).toBe(10);
    // Nothing in the new file yet: the old index answered.
    expect(indexRowsMatching('heron')).toBe(0);

    await indexAll(db);
    expect(indexRowsMatching('heron')).toBe(10);
    expect({ heron: found('heron'), one: found('"n":4,'), total: counted('heron') }).toEqual(
      before,
    );
  });

  it("never finds a pruned entry, nor a reused rowid's old text, in a migrated file's old index", async () => {
    const old = new Database(file);
    runMigrations(
      old,
      schemaVersions.filter((v) => v.version < 17),
    );
    const ids = seedBirds(old, 30); // seed-29, the newest, names the heron
    old.exec(`${indexRows('main')}; DELETE FROM delivery_search_pending`);
    old.close();

    db = openDatabase(file);
    prune([ids[2]!, ids[29]!]);
    // The next entry takes seed-29's rowid, which the old index still holds with its text.
    seedLog(db, UID, 1, { bodyOf: () => '{"bird":"robin"}', labelOf: () => 'Accepted' });
    expect(found('heron')).toHaveLength(8);
    expect(counted('heron')).toBe(8);
    expect(found('robin')).toEqual(['seed-0']);

    await indexAll(db);
    expect(found('heron')).toHaveLength(8);
    expect(counted('heron')).toBe(8);
    expect(found('robin')).toEqual(['seed-0']);
  });
});
