import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { describeError, type Logger } from '../../log.js';
import { INTERRUPTED_BY_LOST_RELAY } from '../../runs/interrupted.js';
import { SearchIndexer } from '../search-indexer.js';
import type { Store, StoreRepositories } from '../store.js';
import { withAdvisoryLock } from './advisory-lock.js';
import { createPostgresAlarmsRepository } from './alarms-repo.js';
import { createPostgresAttemptsRepository } from './attempts-repo.js';
import { createPostgresAutomationsRepository } from './automations-repo.js';
import { createPostgresBatchStore } from './batch-store.js';
import { withTransaction, type Queryable } from './client.js';
import { createPostgresDeliveriesRepository } from './deliveries-repo.js';
import { createPostgresDeliveryScans } from './delivery-scans.js';
import { createPostgresExecutorsRepository } from './executors-repo.js';
import { createPostgresFactoriesRepository } from './factories-repo.js';
import { createPostgresLinksRepository } from './links-repo.js';
import { createPostgresMetricsReader } from './metrics-reader.js';
import { migratePostgres } from './migrate.js';
import { NotificationHub } from './notification-hub.js';
import { openPostgresPool } from './pool.js';
import { PostgresPeers } from './postgres-peers.js';
import { ReplicaRegistry } from './replica-registry.js';
import { createPostgresRetention } from './retention.js';
import { createPostgresRunsRepository } from './runs-repo.js';
import { createPostgresSearchIndex, markingBusy, POSTGRES_PACING } from './search-index.js';
import { PostgresSecretStore } from './secret-store.js';
import { createPostgresSecretsRepository } from './secrets-repo.js';
import { createPostgresSettingsRepository } from './settings-repo.js';
import { SharedRateLimiter } from './shared-rate-limiter.js';
import { createPostgresTokensRepository } from './tokens-repo.js';
import { createPostgresWebhooksRepository } from './webhooks-repo.js';

export interface PostgresStoreOptions {
  /** HOOKPORT_MASTER_KEY: every replica needs the same one; it never enters the database. */
  masterKey: string | undefined;
  dedupeWindowMs: number;
  log: Logger;
  /** Unique per process (lease owner, notification origin); generated when absent. */
  replicaId?: string;
  /** How long a claimed run is held without renewal (30 s). */
  leaseMs?: number;
  /**
   * Connections per replica for everything but the reserved ones (10): the database sees
   * replicas × (pool + RESERVED_CONNECTIONS + 1 listening).
   */
  poolSize?: number;
}

const DEFAULT_LEASE_MS = 30_000;

/**
 * Connections of their own for what must never queue behind the operator's or an API client's
 * reads: the accept path's commits (two in flight) and rate grants, the run leases and the
 * replica's heartbeat. On one pool, 30 reads waiting on the database held a sender's 202 until
 * they ended (a common text's first count takes seconds at a week's scale; a `view` token can
 * ask for as many as it likes): test/integration/postgres/reads-beside-senders.test.ts.
 */
const RESERVED_CONNECTIONS = 4;

const replicaIdOf = (): string => `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

/**
 * Every repository bound to `q`: the pool, or one transaction's client. Runs are built apart.
 * `live`: false once the store closes (long background work stops between its statements).
 */
function repositoriesOn(q: Queryable, live?: () => boolean): Omit<StoreRepositories, 'runs'> {
  return {
    factories: createPostgresFactoriesRepository(q),
    webhooks: createPostgresWebhooksRepository(q),
    automations: createPostgresAutomationsRepository(q),
    deliveries: createPostgresDeliveriesRepository(q),
    secrets: createPostgresSecretsRepository(q),
    tokens: createPostgresTokensRepository(q),
    settings: createPostgresSettingsRepository(q),
    executors: createPostgresExecutorsRepository(q),
    alarms: createPostgresAlarmsRepository(q),
    attempts: createPostgresAttemptsRepository(q),
    scans: createPostgresDeliveryScans(q),
    retention: createPostgresRetention(q, live),
    metrics: createPostgresMetricsReader(q),
    links: createPostgresLinksRepository(q),
  };
}

/**
 * The relay's store on PostgreSQL, shared by any number of equal replicas: migrates the database
 * (once, whoever starts first), listens for the other replicas, and renews the leases of the
 * runs this replica executes. Fails at once, with the reason, when the database cannot be
 * reached or HOOKPORT_MASTER_KEY is missing.
 */
export async function openPostgresStore(
  databaseUrl: string,
  options: PostgresStoreOptions,
): Promise<Store> {
  const { log } = options;
  const replicaId = options.replicaId ?? replicaIdOf();
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const onError = (what: string) => (error: unknown) =>
    log.error(`[postgres] ${what}: ${describeError(error)}`);
  const pool = openPostgresPool(databaseUrl, {
    max: options.poolSize,
    onIdleError: onError('an idle connection failed'),
  });
  const reserved = openPostgresPool(databaseUrl, {
    max: RESERVED_CONNECTIONS,
    onIdleError: onError('an idle connection failed'),
  });
  const closers: Array<() => Promise<void> | void> = [() => pool.end(), () => reserved.end()];
  const closeAll = async (): Promise<void> => {
    for (const close of closers.splice(0).reverse()) await close();
  };
  try {
    const secretStore = PostgresSecretStore.fromEnvironment(pool, options.masterKey);
    await migratePostgres(pool);
    const hub = new NotificationHub(databaseUrl, pool, {
      replicaId,
      onError: onError('listening for other replicas failed'),
    });
    await hub.start();
    closers.push(() => hub.stop());
    const registry = new ReplicaRegistry(reserved, hub, {
      replicaId,
      onError: onError('keeping in step with other replicas failed'),
    });
    await registry.start(Date.now());
    closers.push(() => registry.stop());
    const peers = new PostgresPeers(hub, registry, onError('notifying other replicas failed'));

    const { runs, leases } = createPostgresRunsRepository(pool, {
      replicaId,
      leaseMs,
      renewOn: reserved,
    });
    leases.start({
      onLost: (runId) => peers.runLost(runId),
      onError: onError('renewing run leases failed'),
    });
    closers.push(() => leases.stop());
    // A replica that died leaves its running runs to whoever sees their lease end first.
    const sweep = setInterval(() => {
      runs
        .interruptRunning((run) => peers.reapReason(run, INTERRUPTED_BY_LOST_RELAY), Date.now())
        .then((ended) =>
          peers.publishToAll(
            'runs',
            ended.map((run) => run.id),
          ),
        )
        .catch(onError('ending the runs of a stopped replica failed'));
    }, leaseMs / 2);
    sweep.unref();
    closers.push(() => clearInterval(sweep));

    // The log search indexes payloads after their 202, on every replica (migration 10).
    const indexer = new SearchIndexer(
      createPostgresSearchIndex(pool),
      POSTGRES_PACING,
      onError('indexing the log for search failed (retrying)'),
    );
    indexer.start();
    closers.push(async () => {
      indexer.stop();
      await indexer.idle();
    });

    const limiters: SharedRateLimiter[] = [];
    closers.push(async () => {
      await Promise.all(limiters.map((limiter) => limiter.close()));
    });

    let open = true;
    // Runs first (closers run last-in first): a prune resting between statements stops there.
    closers.push(() => {
      open = false;
    });

    return {
      kind: 'postgres',
      ...repositoriesOn(pool, () => open),
      runs,
      batchStore: markingBusy(
        createPostgresBatchStore(reserved, { dedupeWindowMs: options.dedupeWindowMs }),
        indexer,
      ),
      transaction: (fn) =>
        withTransaction(pool, (client) =>
          fn({
            ...repositoriesOn(client),
            runs: createPostgresRunsRepository(client, { replicaId, leaseMs }).runs,
          }),
        ),
      rateGate: (scope, limit, windowMs) => {
        const limiter = new SharedRateLimiter(reserved, {
          scope,
          limit,
          windowMs,
          onError: onError(`giving back ${scope} slots failed`),
        });
        limiters.push(limiter);
        return limiter;
      },
      secretStore,
      exclusively: async (job, fn) => {
        const outcome = await withAdvisoryLock(pool, job, fn);
        return outcome.ran ? outcome : { ran: false };
      },
      peers,
      close: closeAll,
    };
  } catch (error) {
    await closeAll().catch(() => undefined);
    throw error;
  }
}
