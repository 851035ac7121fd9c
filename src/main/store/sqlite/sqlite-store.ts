import { SlidingWindowLimiter } from '../../ingress/sliding-window.js';
import { describeError, type Logger } from '../../log.js';
import { createAlarmsRepository } from './alarms-repo.js';
import { createAttemptsRepository } from './attempts-repo.js';
import { createAutomationsRepository } from './automations-repo.js';
import { openDatabase, type Db } from './db.js';
import { createDeliveriesRepository } from './deliveries-repo.js';
import type { DeliveryBatchStore } from '../delivery-batch.js';
import { createDeliveryScans } from './delivery-scans.js';
import { createExecutorsRepository } from './executors-repo.js';
import { createFactoriesRepository } from './factories-repo.js';
import { createLinksRepository } from './links-repo.js';
import { createMetricsReader } from './metrics-reader.js';
import { createRetention } from './retention.js';
import { createRunsRepository } from './runs-repo.js';
import { createSecretsRepository } from './secrets-repo.js';
import { createSettingsRepository } from './settings-repo.js';
import { SqliteReadLanes } from './read-lanes.js';
import { SqliteTransactions } from './transaction.js';
import { SqliteWriterThread } from './sqlite-writer-thread.js';
import { soloPeers } from '../store-peers.js';
import { asyncRepository as asyncOf, type Store, type StoreRepositories } from '../store.js';
import { createTokensRepository } from './tokens-repo.js';
import { createWebhooksRepository } from './webhooks-repo.js';
import type { WriterYield } from './writer-yield.js';

export interface SqliteStoreOptions {
  log: Logger;
  /** How long an Accepted identity answers Duplicate (the writer thread enforces it). */
  dedupeWindowMs: number;
  /** How long the writer thread stays up with nothing to do (default 30 s); tests shorten it. */
  writerIdleCloseMs?: number;
}

/** The SQLite store, plus what only SQLite has: tests that check SQLite itself read `db`. */
export interface SqliteStore extends Store {
  kind: 'sqlite';
  /** The main connection (the writer and read threads have their own). */
  db: Db;
  /** Where accepted deliveries are committed: the writer thread, on its own connection. */
  writerThread: SqliteWriterThread;
}

export function isSqliteStore(store: Store): store is SqliteStore {
  return store.kind === 'sqlite';
}

function sqliteRepositories(db: Db, waiters: WriterYield): StoreRepositories {
  // Every call on this connection asks the writer thread's background work to give way.
  const asyncRepository = <T extends object>(repo: T): ReturnType<typeof asyncOf<T>> =>
    asyncOf(announcing(repo, waiters));
  return {
    factories: asyncRepository(createFactoriesRepository(db)),
    webhooks: asyncRepository(createWebhooksRepository(db)),
    automations: asyncRepository(createAutomationsRepository(db)),
    deliveries: asyncRepository(createDeliveriesRepository(db)),
    runs: asyncRepository(createRunsRepository(db)),
    secrets: asyncRepository(createSecretsRepository(db)),
    tokens: asyncRepository(createTokensRepository(db)),
    settings: asyncRepository(createSettingsRepository(db)),
    executors: asyncRepository(createExecutorsRepository(db)),
    alarms: asyncRepository(createAlarmsRepository(db)),
    attempts: asyncRepository(createAttemptsRepository(db)),
    scans: asyncRepository(createDeliveryScans(db)),
    retention: asyncRepository(createRetention(db)),
    metrics: asyncRepository(createMetricsReader(db)),
    links: asyncRepository(createLinksRepository(db)),
  };
}

/** `repo` whose every call runs inside `waiters.around` (it may write: see writer-yield.ts). */
function announcing<T extends object>(repo: T, waiters: WriterYield): T {
  const out: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(repo)) {
    out[name] =
      typeof member === 'function'
        ? (...args: unknown[]): unknown =>
            waiters.around(() => (member as (...a: unknown[]) => unknown).apply(repo, args))
        : member;
  }
  return out as T;
}

/**
 * Opens the relay's SQLite file (creating and migrating it) and starts the writer thread that
 * commits deliveries (the search indexer works behind it, on that thread). `close()` stops it
 * and closes the file; call it once the `DeliveryWriter` over `batchStore` has drained.
 */
export async function openSqliteStore(
  file: string,
  options: SqliteStoreOptions,
): Promise<SqliteStore> {
  const db = openDatabase(file);
  // Deliveries commit on a thread of their own: parsing and verifying the next requests goes on
  // while a batch is written and fsynced. The search indexer runs there too, between batches.
  let writerThread: SqliteWriterThread;
  try {
    writerThread = await SqliteWriterThread.start({
      file,
      options: { dedupeWindowMs: options.dedupeWindowMs },
      log: options.log,
      idleCloseMs: options.writerIdleCloseMs,
    });
  } catch (error) {
    db.close();
    throw new Error(`The SQLite writer thread could not start: ${describeError(error)}`, {
      cause: error,
    });
  }
  const batchStore: DeliveryBatchStore = { commit: (batch) => writerThread.commit(batch) };
  const transactions = new SqliteTransactions(
    db,
    sqliteRepositories(db, writerThread.lockWanted),
    writerThread.lockWanted,
  );
  const outside = transactions.outside();
  const reads = new SqliteReadLanes(file);
  let closing: Promise<void> | null = null;
  return {
    kind: 'sqlite',
    db,
    writerThread,
    ...outside,
    // A page or total of the log can take long at a week's scale: never on the senders' thread.
    deliveries: reads.deliveries(outside.deliveries),
    // On the writer thread, between commits: never on the thread that answers senders.
    retention: { prune: (policy, now) => writerThread.prune(policy, now) },
    batchStore,
    transaction: (fn) => transactions.run(fn),
    // One relay per file: its limits are its own memory, its jobs never overlap another's.
    rateGate: (_scope, limit, windowMs) => new SlidingWindowLimiter(limit, windowMs),
    secretStore: null,
    exclusively: async (_job, fn) => ({ ran: true, value: await fn() }),
    peers: soloPeers,
    close: () =>
      (closing ??= (async () => {
        await Promise.all([writerThread.close(), reads.close()]);
        db.close();
      })()),
  };
}

/** The SQLite connection behind a store, for what only SQLite has (benchmarks, SQLite's own tests). */
export function sqliteDbOf(store: Store): Db {
  if (!isSqliteStore(store))
    throw new Error(`This relay keeps its data in ${store.kind}, not SQLite.`);
  return store.db;
}
