import type Database from 'better-sqlite3';
import { up as sqliteInitial } from './migrations/001-initial.js';
import { up as sqliteSessionTokens } from './migrations/002-session-tokens.js';
import { up as sqliteRequestContext } from './migrations/003-request-context.js';
import { initial as postgresInitial } from './postgres/migrations/001-initial.js';
import { sessionTokens as postgresSessionTokens } from './postgres/migrations/002-session-tokens.js';
import { requestContext as postgresRequestContext } from './postgres/migrations/003-request-context.js';

/** One schema version: the same change, once for each store. */
export interface SchemaVersion {
  version: number;
  name: string;
  sqlite: (db: Database.Database) => void;
  /** SQL run inside the migration transaction; '' when the version changes nothing there. */
  postgres: string;
}

/**
 * Every schema version, in order, for both stores: position N is version N on SQLite
 * (`user_version`) and on PostgreSQL (`hookport_schema`). Append only; never edit a version
 * that has shipped.
 *
 * For versions 4 and up (search, forward attempts, …): add the SQLite file to
 * `migrations/` as today, then its row here with the PostgreSQL step in `postgres/migrations/`
 * under the same number. A change that one store does not need (FTS5 search has a PostgreSQL
 * equivalent of its own; a PostgreSQL-only lease column) gets a no-op step on the other side so
 * that the numbers stay aligned. In the wiring phase `migrations/index.ts` reads its list from
 * here; until then a test checks that both lists have the same length.
 */
export const schemaVersions: readonly SchemaVersion[] = [
  { version: 1, name: 'initial', sqlite: sqliteInitial, postgres: postgresInitial },
  {
    version: 2,
    name: 'session-tokens',
    sqlite: sqliteSessionTokens,
    postgres: postgresSessionTokens,
  },
  {
    version: 3,
    name: 'request-context',
    sqlite: sqliteRequestContext,
    postgres: postgresRequestContext,
  },
];
