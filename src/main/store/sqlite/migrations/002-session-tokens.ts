import type Database from 'better-sqlite3';

/** A session remembers the minted token it was opened with, so revoking the token ends it. */
export function up(db: Database.Database): void {
  db.exec(`
    ALTER TABLE sessions ADD COLUMN token_id TEXT;
    CREATE INDEX sessions_by_token ON sessions (token_id) WHERE token_id IS NOT NULL;
  `);
}
