import type Database from 'better-sqlite3';

/** Version 9: replicas of one PostgreSQL database; one SQLite file has one relay, so nothing here. */
export function up(_db: Database.Database): void {}
