import Database from 'better-sqlite3';
import { runMigrations } from './migrate.js';
import { ownerOnly } from './owner-only.js';
import { attachIndexFile, prepareIndexFile } from './search-index-file.js';

export type Db = Database.Database;

/**
 * SQLite's page cache, per connection: SQLite's own default of 2 MB. better-sqlite3 builds SQLite
 * with 16 MB, and the relay keeps two connections (the writer thread's and the main one's): that
 * was up to 32 MB of the relay's memory for pages the OS already caches.
 */
export const PAGE_CACHE_KIB = 2_000;

/**
 * Opens (or creates) the relay's SQLite file and brings its schema up to date. WAL with
 * synchronous=FULL: a commit is on disk before the 202 that depends on it is sent, and readers
 * never block the accept writer.
 */
export function openDatabase(file: string): Db {
  ownerOnly(file);
  const db = openConnection(file);
  runMigrations(db);
  prepareIndexFile(file);
  attachIndexFile(db, file);
  return db;
}

/**
 * One more connection to a relay file that `openDatabase` has prepared, with the same
 * durability: the writer thread commits deliveries through one of these.
 */
export function openConnection(file: string): Db {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  if (process.platform === 'darwin') {
    // macOS fsync does not reach the platter; F_FULLFSYNC does.
    db.pragma('fullfsync = ON');
    db.pragma('checkpoint_fullfsync = ON');
  }
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  beginImmediate(db);
  return db;
}

/**
 * A read-only connection to a relay file that `openDatabase` has prepared, with the search index
 * attached (read-only too): the read thread's. It takes no lock a writer waits for.
 */
export function openReadConnection(file: string): Db {
  const db = new Database(file, { readonly: true });
  db.pragma('busy_timeout = 5000');
  db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  attachIndexFile(db, file);
  return db;
}

/**
 * Two connections write the relay's file: the main thread's and the writer thread's. In WAL mode
 * a transaction that has read cannot wait for the other's write lock once it wants to write
 * (SQLite answers SQLITE_BUSY at once rather than risk a deadlock), so every transaction on
 * these connections takes the write lock as it begins, waiting up to busy_timeout for it.
 */
function beginImmediate(db: Db): void {
  const transaction = db.transaction.bind(db);
  let lockThisFile: Database.Statement | null = null;
  db.transaction = ((fn: (...args: unknown[]) => unknown) => {
    // BEGIN IMMEDIATE would take the write lock of every attached file too (the search index's,
    // which its own thread holds through long merges, with this file's lock held meanwhile): a
    // write to this file alone, first, takes this file's lock only, waiting as IMMEDIATE does.
    const tx = transaction((...args: unknown[]) => {
      (lockThisFile ??= db.prepare('UPDATE hookport_schema SET version = version WHERE 0')).run();
      return fn(...args);
    });
    const begin = (...args: unknown[]): unknown =>
      db.inTransaction ? tx.immediate(...args) : tx.deferred(...args);
    return Object.assign(begin, {
      default: begin,
      immediate: begin,
      deferred: (...args: unknown[]): unknown => tx.deferred(...args),
      exclusive: (...args: unknown[]): unknown => tx.exclusive(...args),
      database: db,
    });
  }) as Db['transaction'];
}
