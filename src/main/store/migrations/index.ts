import type Database from 'better-sqlite3';
import { up as initial } from './001-initial.js';
import { up as sessionTokens } from './002-session-tokens.js';
import { up as runProcesses } from './006-run-processes.js';

type Migration = (db: Database.Database) => void;

/** Append only: position N is schema version N. Never edit a migration that has shipped. */
const migrations: readonly Migration[] = [initial, sessionTokens, runProcesses];

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
