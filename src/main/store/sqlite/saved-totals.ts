import Database from 'better-sqlite3';
import { saveSchedule, savedFrom, savedJson, savedNameOf, UNUSED_MS } from '../saved-totals.js';
import type { SavedTotal } from '../saved-totals.js';
import type { Db } from './db.js';
import { fileBeside } from './file-beside.js';
import { ownerOnly } from './owner-only.js';

/** How long a save or a load waits for another totals' thread (one closing as the next starts). */
const WAIT_MS = 200;

/** Saved totals as search-totals.ts reads and writes them (sync: on the totals' read thread). */
export interface SavedTotals {
  load(key: string): SavedTotal | undefined;
  save(key: string, kept: SavedTotal, first: boolean): void;
  close(): void;
}

/** A connection to the totals file and what `setUp` prepares on it; closed again if that fails. */
function openTotalsFile<T>(path: string, options: Database.Options, setUp: (db: Db) => T): T {
  const db: Db = new Database(path, options);
  try {
    return setUp(db);
  } catch (error) {
    db.close();
    throw error;
  }
}

/** `hookport.sqlite` → `hookport.totals.sqlite`. */
export const totalsFileOf = (file: string): string => fileBeside(file, 'totals');

/**
 * Kept search totals saved (../saved-totals.ts) in a file of their own beside the relay's,
 * written by the totals' read thread alone: that thread keeps them in memory and closes after 5
 * idle minutes, and a relay restarts; either had meant a first count again (half a second for a
 * common text at two million entries). Not in the relay's file, whose write lock the senders'
 * commits wait for, nor in the index file, whose thread reads and then writes in one transaction
 * and would fail on a commit of another connection between the two. A total counts entries of the
 * relay's file, whatever the index file holds, and search-totals.ts checks each part against that
 * file (a restored or replaced one included: the entry at its mark differs). A schema version that
 * changes what a search matches must delete this file's rows. Opened on first use: the read
 * thread's own connection is read-only, and the pages' thread never saves a total.
 */
export function savedSearchTotals(file: string, clock: () => number = Date.now): SavedTotals {
  const schedule = saveSchedule(clock);
  let opened: ReturnType<typeof open> | null = null;

  function open() {
    const path = totalsFileOf(file);
    ownerOnly(path);
    return openTotalsFile(path, {}, (db) => {
      db.pragma(`busy_timeout = ${WAIT_MS}`);
      db.pragma('journal_mode = WAL');
      // Lost in a crash, a total is counted again: no sync per save.
      db.pragma('synchronous = NORMAL');
      db.exec(`CREATE TABLE IF NOT EXISTS search_totals (
        search TEXT PRIMARY KEY, kept TEXT NOT NULL, used_at INTEGER NOT NULL) STRICT`);
      return {
        db,
        read: db
          .prepare<[string], string>('SELECT kept FROM search_totals WHERE search = ?')
          .pluck(),
        write: db.prepare<[string, string, number]>(
          `INSERT INTO search_totals (search, kept, used_at) VALUES (?, ?, ?)
           ON CONFLICT (search) DO UPDATE SET kept = excluded.kept, used_at = excluded.used_at`,
        ),
        clean: db.prepare<[number]>('DELETE FROM search_totals WHERE used_at < ?'),
      };
    });
  }
  const on = () => (opened ??= open());

  return {
    load: (key) => {
      try {
        return savedFrom(on().read.get(savedNameOf(key)));
      } catch {
        // Unreadable (the file cannot be opened, say): counted from scratch, as unsaved.
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
        // Not saved (the disk full, say): counted on from memory, saved at the next try.
      }
    },
    close: () => opened?.db.close(),
  };
}

/**
 * Which searches have a total saved, for the lanes (read-lanes.ts) on the main thread: after a
 * restart a saved search is counted on (tens of milliseconds) and goes ahead of first counts
 * waiting. One lookup by its key (microseconds) on a read-only connection opened on first use;
 * none while the file cannot be read (not written yet), tried again at the next ask.
 */
export function savedTotalNames(file: string) {
  let opened: { db: Db; read: Database.Statement<[string], number> } | null = null;
  return {
    has(key: string): boolean {
      try {
        opened ??= openTotalsFile(
          totalsFileOf(file),
          { readonly: true, fileMustExist: true },
          (db) => ({
            db,
            read: db
              .prepare<[string], number>('SELECT 1 FROM search_totals WHERE search = ?')
              .pluck(),
          }),
        );
        return opened.read.get(savedNameOf(key)) !== undefined;
      } catch {
        return false;
      }
    },
    close(): void {
      opened?.db.close();
    },
  };
}
