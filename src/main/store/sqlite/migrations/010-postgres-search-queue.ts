/**
 * Version 10 takes PostgreSQL's payload search off its accept path, as version 4 did on SQLite
 * (a queue and a background indexer): nothing to change here, an empty step keeps the two
 * stores' version numbers aligned.
 */
export function up(): void {}
