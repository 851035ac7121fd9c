import type Database from 'better-sqlite3';
import { up as sqliteInitial } from './sqlite/migrations/001-initial.js';
import { up as sqliteSessionTokens } from './sqlite/migrations/002-session-tokens.js';
import {
  up as sqliteRequestContext,
  withoutRowid as sqliteRequestContextsWithoutRowid,
} from './sqlite/migrations/003-request-context.js';
import { up as sqliteLogSearchAndAlarms } from './sqlite/migrations/004-log-search-and-alarms.js';
import { up as sqliteForwarding } from './sqlite/migrations/005-forwarding.js';
import { up as sqliteRunProcesses } from './sqlite/migrations/006-run-processes.js';
import { up as sqlitePostgresLogSearch } from './sqlite/migrations/008-postgres-log-search.js';
import { up as sqliteReplicas } from './sqlite/migrations/009-replicas.js';
import { up as sqlitePostgresSearchQueue } from './sqlite/migrations/010-postgres-search-queue.js';
import { up as sqliteProviderLinks } from './sqlite/migrations/013-provider-links.js';
import { up as sqliteDeliverySummaries } from './sqlite/migrations/011-delivery-summaries.js';
import { up as sqliteDeliveryCounts } from './sqlite/migrations/015-delivery-counts.js';
import { up as sqliteSearchIndexFile } from './sqlite/migrations/017-search-index-file.js';
import { up as sqliteSearchKeepsPrunedRows } from './sqlite/migrations/019-search-keeps-pruned-rows.js';
import { initial as postgresInitial } from './postgres/migrations/001-initial.js';
import { sessionTokens as postgresSessionTokens } from './postgres/migrations/002-session-tokens.js';
import { requestContext as postgresRequestContext } from './postgres/migrations/003-request-context.js';
import { logSearchAndAlarms as postgresLogSearchAndAlarms } from './postgres/migrations/004-log-search-and-alarms.js';
import { forwarding as postgresForwarding } from './postgres/migrations/005-forwarding.js';
import { runProcesses as postgresRunProcesses } from './postgres/migrations/006-run-processes.js';
import { logSearch as postgresLogSearch } from './postgres/migrations/008-log-search.js';
import { replicas as postgresReplicas } from './postgres/migrations/009-replicas.js';
import { searchQueue as postgresSearchQueue } from './postgres/migrations/010-search-queue.js';
import { providerLinks as postgresProviderLinks } from './postgres/migrations/013-provider-links.js';
import { deliverySummaries as postgresDeliverySummaries } from './postgres/migrations/011-delivery-summaries.js';
import { searchTextSerial as postgresSearchTextSerial } from './postgres/migrations/014-search-text-serial.js';
import { deliveryCounts as postgresDeliveryCounts } from './postgres/migrations/015-delivery-counts.js';
import { searchTextChecked as postgresSearchTextChecked } from './postgres/migrations/016-search-text-checked.js';
import { searchOrder as postgresSearchOrder } from './postgres/migrations/018-search-order.js';
import { searchTotals as postgresSearchTotals } from './postgres/migrations/020-search-totals.js';
import { searchTotalsNamedByDigest as postgresSearchTotalsNamedByDigest } from './postgres/migrations/021-search-totals-named-by-digest.js';

/** One schema version: the same change, once for each store. */
export interface SchemaVersion {
  version: number;
  name: string;
  sqlite: (db: Database.Database) => void;
  /** SQL run inside the migration transaction; '' when the version changes nothing there. */
  postgres: string;
}

/**
 * Every schema version, in file-number order, for both stores: the one list of migrations.
 * `version` is the number of the migration files (`sqlite/migrations/NNN-…` and
 * `postgres/migrations/NNN-…`). Append only; a shipped version changes only so that every file
 * still ends with the same schema (versions 3 and 7 are one change, folded into 003).
 *
 * Both stores record each version they applied (`hookport_schema`), so a number that lands after
 * a higher one is still applied when it arrives. A new version: its SQLite file in `sqlite/migrations/`,
 * its PostgreSQL step under the same number in `postgres/migrations/`, and its row here. A change
 * one store does not need gets an empty step on the other side (`''`, or a function that does
 * nothing), so the numbers stay aligned.
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
  {
    version: 4,
    name: 'log-search-and-alarms',
    sqlite: sqliteLogSearchAndAlarms,
    postgres: postgresLogSearchAndAlarms,
  },
  { version: 5, name: 'forwarding', sqlite: sqliteForwarding, postgres: postgresForwarding },
  {
    version: 6,
    name: 'run-processes',
    sqlite: sqliteRunProcesses,
    postgres: postgresRunProcesses,
  },
  {
    version: 7,
    name: 'request-contexts-without-rowid',
    // Folded into version 3 (003-request-context.ts); rebuilds only tables an older version 3 made.
    sqlite: sqliteRequestContextsWithoutRowid,
    // A SQLite storage choice (one B-tree per entry); PostgreSQL's table already has one.
    postgres: '',
  },
  // FTS5 (version 4) searches SQLite's log; this is PostgreSQL's search (pg_trgm).
  { version: 8, name: 'log-search', sqlite: sqlitePostgresLogSearch, postgres: postgresLogSearch },
  { version: 9, name: 'replicas', sqlite: sqliteReplicas, postgres: postgresReplicas },
  // SQLite's search is off its accept path since version 4; this moves PostgreSQL's.
  {
    version: 10,
    name: 'search-queue',
    sqlite: sqlitePostgresSearchQueue,
    postgres: postgresSearchQueue,
  },
  {
    version: 11,
    name: 'delivery-summaries',
    sqlite: sqliteDeliverySummaries,
    postgres: postgresDeliverySummaries,
  },
  {
    version: 13,
    name: 'provider-links',
    sqlite: sqliteProviderLinks,
    postgres: postgresProviderLinks,
  },
  // A PostgreSQL function's parallel safety; SQLite has no such function.
  {
    version: 14,
    name: 'search-text-serial',
    sqlite: () => undefined,
    postgres: postgresSearchTextSerial,
  },
  // Totals, activity and volume add up these per-minute counts instead of counting the log.
  {
    version: 15,
    name: 'delivery-counts',
    sqlite: sqliteDeliveryCounts,
    postgres: postgresDeliveryCounts,
  },
  // The payload's UTF-8 checked once, when written (PostgreSQL); SQLite's index reads the text.
  {
    version: 16,
    name: 'search-text-checked',
    sqlite: () => undefined,
    postgres: postgresSearchTextChecked,
  },
  // SQLite's trigram index moves to a file of its own; PostgreSQL's search has no such file.
  {
    version: 17,
    name: 'search-index-file',
    sqlite: sqliteSearchIndexFile,
    postgres: '',
  },
  // The order entries join PostgreSQL's search index: its kept exact totals; SQLite has rowids.
  { version: 18, name: 'search-order', sqlite: () => undefined, postgres: postgresSearchOrder },
  // SQLite's index keeps a deleted entry's rows until they are a share of it (no tombstones).
  {
    version: 19,
    name: 'search-keeps-pruned-rows',
    sqlite: sqliteSearchKeepsPrunedRows,
    postgres: '',
  },
  // PostgreSQL's kept search totals shared by its relays and kept across restarts; SQLite's
  // relay is the only one on its file, and a first count there takes under a second.
  { version: 20, name: 'search-totals', sqlite: () => undefined, postgres: postgresSearchTotals },
  // Found by a digest of the search, not its text.
  {
    version: 21,
    name: 'search-totals-named-by-digest',
    sqlite: () => undefined,
    postgres: postgresSearchTotalsNamedByDigest,
  },
];
