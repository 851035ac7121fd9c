import type Database from 'better-sqlite3';

/**
 * Where a `command` run's program can be found again after the relay died: its process group
 * and how its leader's start was identified (so a reused process ID is never taken for it).
 */
export function up(db: Database.Database): void {
  db.exec(`
    ALTER TABLE runs ADD COLUMN process_group INTEGER;
    ALTER TABLE runs ADD COLUMN process_started TEXT;
  `);
}
