import { join } from 'node:path';
import { DEDUPE_WINDOW_MS } from '../ingress/limits.js';
import type { Logger } from '../log.js';
import { openSqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './store.js';

export interface OpenStoreOptions {
  dataDir: string;
  /** `--database` / HOOKPORT_DATABASE_URL: PostgreSQL, shared with other relays. */
  databaseUrl?: string | null;
  /** PostgreSQL: how long a claimed run is held without renewal (default 30 s). */
  runLeaseMs?: number;
  /** HOOKPORT_MASTER_KEY: seals secret values in PostgreSQL. */
  masterKeyFromEnv?: string;
  /** SQLite: how long the writer thread stays up with nothing to do (tests shorten it). */
  writerIdleCloseMs?: number;
  log: Logger;
}

/**
 * The one place that knows both stores: PostgreSQL when a database URL is given, else SQLite in
 * the data dir. The PostgreSQL store (and its driver, `pg`) loads only when it is used: a SQLite
 * relay is spared its code in memory (about 4 MB of RSS; README, "Memory").
 */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  if (options.databaseUrl) {
    const { openPostgresStore } = await import('./postgres/postgres-store.js');
    return openPostgresStore(options.databaseUrl, {
      masterKey: options.masterKeyFromEnv,
      leaseMs: options.runLeaseMs,
      dedupeWindowMs: DEDUPE_WINDOW_MS,
      log: options.log,
    });
  }
  return openSqliteStore(join(options.dataDir, 'hookport.sqlite'), {
    log: options.log,
    dedupeWindowMs: DEDUPE_WINDOW_MS,
    writerIdleCloseMs: options.writerIdleCloseMs,
  });
}
