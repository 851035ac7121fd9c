/**
 * Version 8 is PostgreSQL's log search (pg_trgm). SQLite searches with the FTS5 index of
 * version 4 already: an empty step keeps the two stores' version numbers aligned.
 */
export function up(): void {}
