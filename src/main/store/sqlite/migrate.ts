import type Database from 'better-sqlite3';
import { schemaVersions, type SchemaVersion } from '../schema-versions.js';

/**
 * Brings a SQLite file to the newest schema: every version of `schemaVersions` not yet applied,
 * in order, each in its own transaction, recorded in `hookport_schema` as PostgreSQL records it.
 * Files from before that table counted applied steps in `user_version` (versions 1..N, applied in
 * order); they are recorded once. `user_version` keeps the newest version, so an older Hookport
 * that still counts steps refuses a file a newer one has migrated.
 */
export function runMigrations(
  db: Database.Database,
  versions: readonly SchemaVersion[] = schemaVersions,
): void {
  const newest = versions[versions.length - 1]?.version ?? 0;
  db.exec(`CREATE TABLE IF NOT EXISTS hookport_schema (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at INTEGER NOT NULL) STRICT`);
  const record = db.prepare<[number, string, number]>(
    'INSERT INTO hookport_schema (version, name, applied_at) VALUES (?, ?, ?)',
  );
  const applied = new Set(
    db
      .prepare<[], { version: number }>('SELECT version FROM hookport_schema')
      .all()
      .map((r) => r.version),
  );
  if (applied.size === 0) {
    const counted = db.pragma('user_version', { simple: true }) as number;
    db.transaction(() => {
      for (const step of versions.filter((v) => v.version <= counted)) {
        record.run(step.version, step.name, Date.now());
        applied.add(step.version);
      }
    })();
  }
  const unknown = [...applied].filter((v) => !versions.some((step) => step.version === v));
  if (unknown.length > 0) {
    throw new Error(
      `The database is at schema version ${Math.max(...unknown)}, newer than this Hookport (${newest}). Upgrade Hookport.`,
    );
  }
  for (const step of versions) {
    if (applied.has(step.version)) continue;
    db.transaction(() => {
      step.sqlite(db);
      record.run(step.version, step.name, Date.now());
      db.pragma(`user_version = ${Math.max(step.version, newestApplied(db))}`);
    })();
  }
}

function newestApplied(db: Database.Database): number {
  return db.prepare<[], { v: number }>('SELECT max(version) AS v FROM hookport_schema').get()!.v;
}
