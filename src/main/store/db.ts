import Database from 'better-sqlite3';
import { runMigrations } from './migrations/index.js';

export type Db = Database.Database;

/**
 * Opens (or creates) the relay's SQLite file. WAL with synchronous=FULL: a commit is on disk
 * before the 202 that depends on it is sent, and readers never block the accept writer.
 */
export function openDatabase(file: string): Db {
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
  runMigrations(db);
  return db;
}
