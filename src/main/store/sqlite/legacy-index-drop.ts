import type Database from 'better-sqlite3';
import { openConnection, type Db } from './db.js';

/**
 * Rows deleted per slice, by table: a slice is one short transaction on the relay's file, whose
 * write lock accept commits wait for. `_data` rows are the old index's pages (about 4 KB each,
 * one leaf each), the others a few bytes each.
 */
export const DROP_ROWS = { data: 64, small: 1_024 } as const;

/** The old index once set aside: nothing reads it, so its rows can go a slice at a time. */
const SET_ASIDE = 'delivery_search_legacy_dropped';

const OLD_INDEX = `CREATE VIRTUAL TABLE delivery_search USING fts5(
  id, identity, event_type, body,
  content = '', contentless_delete = 1, tokenize = 'trigram'
)`;

/** What one call did: `more` while the old index still holds rows. */
export interface DropSlice {
  step: 'set-aside' | 'data' | 'docsize' | 'idx' | 'dropped' | 'none';
  rows: number;
  more: boolean;
}

/**
 * Gives back a migrated file's old trigram index (migration 017) once the index file has been
 * rebuilt past it: `DROP TABLE` of its gigabytes would hold the relay file's write lock for
 * seconds, so it goes in slices of at most `DROP_ROWS` rows, each its own transaction.
 *
 * 1. Set aside, in one transaction: the old FTS5 table is renamed (its shadow tables with it),
 *    an empty one takes its name (the searches' SQL reads it: it now answers for nothing), and
 *    `delivery_search_legacy.upto` becomes 0 (no rowid is the old index's any more).
 * 2. The set-aside table's shadow rows are deleted a slice at a time (nothing reads them: a
 *    half-deleted FTS5 index would be corrupt to a reader), then the empty tables are dropped.
 *
 * Its own connection: FTS5's shadow tables are read-only to SQL under SQLite's defensive mode,
 * which better-sqlite3 turns on; `unsafeMode` turns it off for this connection alone. Freed
 * pages go to the relay file's freelist (auto_vacuum is off) and new entries reuse them.
 * `logDb`: a connection to the relay's file (read only here); `rebuiltUpTo`: the index file's mark (`delivery_search_rebuilt`), read by its own connection.
 */
export function createLegacyIndexDrop(logDb: Db, rebuiltUpTo: () => number) {
  let db: Db | null = null;
  let done = false;
  const connection = (): Db => {
    if (db) return db;
    db = openConnection(logDb.name);
    db.unsafeMode(true);
    return db;
  };
  const setAsideExists = logDb
    .prepare<[], number>(`SELECT count(*) FROM sqlite_schema WHERE name = '${SET_ASIDE}'`)
    .pluck();
  const legacyUpTo = logDb
    .prepare<[], number>('SELECT coalesce((SELECT upto FROM delivery_search_legacy), 0)')
    .pluck();

  // Prepared once per connection and table: a million-entry index takes thousands of slices.
  const deletes = new Map<string, Database.Statement<[number]>>();
  const deleteSome = (table: string, key: string, limit: number): number => {
    let statement = deletes.get(table);
    if (!statement) {
      statement = connection().prepare<[number]>(
        `DELETE FROM ${SET_ASIDE}_${table} WHERE (${key}) IN
           (SELECT ${key} FROM ${SET_ASIDE}_${table} LIMIT ?)`,
      );
      deletes.set(table, statement);
    }
    return statement.run(limit).changes;
  };

  const sliceOf = (): DropSlice => {
    if (setAsideExists.get() === 0) {
      const legacy = legacyUpTo.get()!;
      // No old index (a new file, or one given back): it never comes back, so nothing is asked again.
      if (legacy === 0) done = true;
      if (legacy === 0 || rebuiltUpTo() < legacy) return { step: 'none', rows: 0, more: false };
      const conn = connection();
      conn.transaction(() => {
        conn.exec(`ALTER TABLE delivery_search RENAME TO ${SET_ASIDE};
          ${OLD_INDEX};
          UPDATE delivery_search_legacy SET upto = 0;`);
      })();
      return { step: 'set-aside', rows: 0, more: true };
    }
    const conn = connection();
    return conn.transaction((): DropSlice => {
      const steps = [
        ['data', 'id', DROP_ROWS.data],
        ['docsize', 'id', DROP_ROWS.small],
        ['idx', 'segid, term', DROP_ROWS.small],
      ] as const;
      for (const [table, key, limit] of steps) {
        const rows = deleteSome(table, key, limit);
        if (rows > 0) return { step: table, rows, more: true };
      }
      conn.exec(`DROP TABLE ${SET_ASIDE}`);
      return { step: 'dropped', rows: 0, more: false };
    })();
  };

  return {
    /** One slice (one short transaction on the relay's file); false once nothing is left. */
    dropSome: (): DropSlice => {
      if (done) return { step: 'none', rows: 0, more: false };
      const slice = sliceOf();
      done ||= slice.step === 'dropped';
      return slice;
    },
    close: (): void => {
      db?.close();
      db = null;
      deletes.clear();
    },
  };
}
