import Database from 'better-sqlite3';
import { saveSchedule, savedFrom, savedJson, savedNameOf, UNUSED_MS } from '../saved-totals.js';
import type { SavedTotal } from '../saved-totals.js';
import type { Db } from './db.js';
import { indexFileOf } from './search-index-file.js';

/**
 * How long a save waits for the index file's write lock, which the index thread holds through
 * its batches and merges: on the totals' thread only, and a save that gives up is tried again by
 * the search's next count.
 */
const SAVE_WAIT_MS = 200;

/** Saved totals as search-totals.ts reads and writes them (sync: on the totals' read thread). */
export interface SavedTotals {
  load(key: string): SavedTotal | undefined;
  save(key: string, kept: SavedTotal, first: boolean): void;
  close(): void;
}

/**
 * Kept search totals saved in the search index file (`search_totals`, made by
 * prepareIndexFile): the totals' read thread keeps them in memory and closes after 5 idle
 * minutes, and a relay restarts; either had meant a first count again (half a second for a
 * common text at two million entries). In the index file, beside the hits they count: a file
 * rebuilt from scratch queues every entry again, and takes the totals with it. Its own
 * connection, opened on first use: the read thread's is read-only.
 */
export function savedSearchTotals(file: string, clock: () => number = Date.now): SavedTotals {
  const schedule = saveSchedule(clock);
  let opened: ReturnType<typeof open> | null = null;

  function open() {
    const db: Db = new Database(indexFileOf(file));
    db.pragma(`busy_timeout = ${SAVE_WAIT_MS}`);
    // Lost in a crash, a total is counted again: no sync per save. Checkpoints stay with the
    // index thread, which writes this file's bulk: a save must not run one of its WAL.
    db.pragma('synchronous = NORMAL');
    db.pragma('wal_autocheckpoint = 0');
    return {
      db,
      read: db.prepare<[string], string>('SELECT kept FROM search_totals WHERE search = ?').pluck(),
      write: db.prepare<[string, string, number]>(
        `INSERT INTO search_totals (search, kept, used_at) VALUES (?, ?, ?)
         ON CONFLICT (search) DO UPDATE SET kept = excluded.kept, used_at = excluded.used_at`,
      ),
      clean: db.prepare<[number]>('DELETE FROM search_totals WHERE used_at < ?'),
    };
  }
  const on = () => (opened ??= open());

  return {
    load: (key) => {
      try {
        return savedFrom(on().read.get(savedNameOf(key)));
      } catch {
        // Unreadable (a file made before the table, say): counted from scratch, as unsaved.
        return undefined;
      }
    },
    save: (key, kept, first) => {
      const due = schedule.due(key, first);
      if (due === null) return;
      try {
        const { db, write, clean } = on();
        db.transaction(() => {
          write.run(savedNameOf(key), savedJson(kept), due.now);
          if (due.clean) clean.run(due.now - UNUSED_MS);
        })();
        schedule.saved(key, due.now);
      } catch {
        // Not saved (the index thread held the file): counted on from memory until the next try.
      }
    },
    close: () => opened?.db.close(),
  };
}
