import type Database from 'better-sqlite3';
import { up as initial } from './001-initial.js';
import { up as sessionTokens } from './002-session-tokens.js';
import { up as requestContext } from './003-request-context.js';
import { up as logSearchAndAlarms } from './004-log-search-and-alarms.js';
import { up as forwarding } from './005-forwarding.js';
import { up as runProcesses } from './006-run-processes.js';
import { up as requestContextsWithoutRowid } from './007-request-contexts-without-rowid.js';
import { up as postgresLogSearch } from './008-postgres-log-search.js';
import { up as replicas } from './009-replicas.js';
import { up as postgresSearchQueue } from './010-postgres-search-queue.js';
import { up as providerLinks } from './013-provider-links.js';

type Migration = (db: Database.Database) => void;

/** Append only: position N is schema version N. Never edit a migration that has shipped. */
const migrations: readonly Migration[] = [
  initial,
  sessionTokens,
  requestContext,
  logSearchAndAlarms,
  forwarding,
  // 003-007 landed together, before any release: in file-number order, position N is version N.
  runProcesses,
  requestContextsWithoutRowid,
  postgresLogSearch,
  replicas,
  postgresSearchQueue,
  // TEMPORARY (branch links): schema version 13 sits at position 11 until SQLite reads schemaVersions.
  providerLinks,
];

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
