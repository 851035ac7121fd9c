import type { Db } from './db.js';

/**
 * Runs `read` in one read transaction whose snapshot of the relay's file is taken before the
 * index file's. The index thread commits an entry's rows to the index file before it takes the
 * entry off the relay's queue (search-index.ts): read in that order, an entry is queued, indexed
 * or both, never neither. A search's plan (its hits in the index) and its page, read as
 * statements of their own, missed one replay in twenty searched for right after it: the plan was
 * read before the index took the entry, the page's queue after.
 */
export function readSnapshot(db: Db): <T>(read: () => T) => T {
  const logFirst = db.prepare('SELECT 1 FROM main.sqlite_schema LIMIT 1');
  const thenIndex = db.prepare('SELECT 1 FROM search.sqlite_schema LIMIT 1');
  return <T>(read: () => T): T =>
    db
      .transaction((): T => {
        logFirst.get();
        thenIndex.get();
        return read();
      })
      .deferred();
}
