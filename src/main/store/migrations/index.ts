import type Database from 'better-sqlite3';
import { schemaVersions } from '../schema-versions.js';

type Migration = (db: Database.Database) => void;

/** Append only: position N is schema version N. Never edit a migration that has shipped. */
// Read from the one list both stores share (schema-versions.ts); its versions are 1…N in order.
const migrations: readonly Migration[] = schemaVersions.map((version) => version.sqlite);

export function runMigrations(db: Database.Database): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > migrations.length) {
    throw new Error(
      `The database is at schema version ${current}, newer than this Hookport (${migrations.length}). Upgrade Hookport.`,
    );
  }
  for (let version = current; version < migrations.length; version++) {
    const migrate = migrations[version]!;
    db.transaction(() => {
      migrate(db);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}
