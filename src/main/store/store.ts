import type { RateGate } from '../ingress/rate-gate.js';
import type { SecretStore } from '../secrets/secret-store.js';
import type { AlarmsRepository } from './alarms.js';
import type { AttemptsRepository } from './attempts.js';
import type { AutomationsRepository } from './automations.js';
import type { DeliveriesRepository } from './deliveries.js';
import type { DeliveryBatchStore } from './delivery-batch.js';
import type { ExecutorsRepository } from './executors.js';
import type { FactoriesRepository } from './factories.js';
import type { LinksRepository } from './links.js';
import type { MetricsReader } from './metrics-queries.js';
import type { Retention } from './retention-policy.js';
import type { RunsRepository } from './runs.js';
import type { DeliveryScans } from './scans.js';
import type { SecretsRepository } from './secrets.js';
import type { SettingsRepository } from './settings.js';
import type { StorePeers } from './store-peers.js';
import type { TokensRepository } from './tokens.js';
import type { WebhooksRepository } from './webhooks.js';
/**
 * A repository's shape with every method answering a Promise. SQLite answers from synchronous
 * better-sqlite3 calls, PostgreSQL from the network; callers cannot tell which.
 */
export type Async<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R
    ? (...args: A) => Promise<Awaited<R>>
    : never;
};

/**
 * A repository's shape with every method answering at once: what SQLite's repositories are (the
 * writer thread and tests call them so), made async for the store by `asyncRepository`.
 */
export type Sync<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => R : never;
};

/**
 * A synchronous repository behind the async shape. Each call runs at once, in the caller's tick
 * (a thrown error becomes a rejection), so a SQLite transaction whose callback awaits only these
 * calls is never interleaved with other work on the connection.
 */
export function asyncRepository<T extends object>(repo: T): Async<T> {
  const wrapped: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(repo)) {
    if (typeof member !== 'function') continue;
    const method = member as (...args: unknown[]) => unknown;
    wrapped[name] = (...args: unknown[]): Promise<unknown> => {
      try {
        return Promise.resolve(method.apply(repo, args));
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
  }
  return wrapped as Async<T>;
}

/** The repositories every store offers; the same set, bound to one connection, inside a transaction. */
export interface StoreRepositories {
  factories: FactoriesRepository;
  webhooks: WebhooksRepository;
  automations: AutomationsRepository;
  deliveries: DeliveriesRepository;
  runs: RunsRepository;
  secrets: SecretsRepository;
  tokens: TokensRepository;
  settings: SettingsRepository;
  executors: ExecutorsRepository;
  alarms: AlarmsRepository;
  attempts: AttemptsRepository;
  scans: DeliveryScans;
  retention: Retention;
  metrics: MetricsReader;
  /** Provider links and the recovery ledger (PRODUCT §19). */
  links: LinksRepository;
}

export type StoreKind = 'sqlite' | 'postgres';

/**
 * Everything the relay keeps, behind one object: core and the modules it wires know this
 * interface, never which database answers it.
 */
export interface Store extends StoreRepositories {
  kind: StoreKind;
  /** The accept path: one transaction per batch of deliveries, resolved once durable. */
  batchStore: DeliveryBatchStore;
  /** All or nothing: `fn`'s writes through `tx` commit together or not at all. */
  transaction<T>(fn: (tx: StoreRepositories) => Promise<T>): Promise<T>;
  /**
   * A limit every relay on this store shares (on PostgreSQL, counted on the database's clock);
   * on SQLite, this relay's memory. `scope` keeps limits apart: 'deliveries', 'failed-auth'.
   */
  rateGate(scope: string, limit: number, windowMs: number): RateGate;
  /** Where secret values must live with this store (PostgreSQL: encrypted in it), or null: the relay chooses. */
  secretStore: SecretStore | null;
  /** Runs `fn` unless another relay on this store runs the job of this name right now. */
  exclusively<T>(
    job: string,
    fn: () => Promise<T>,
  ): Promise<{ ran: true; value: T } | { ran: false }>;
  /** The other relays on this store (none on SQLite). */
  peers: StorePeers;
  close(): Promise<void>;
}
