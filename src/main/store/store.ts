import type { RateGate } from '../ingress/rate-gate.js';
import type { SecretStore } from '../secrets/secret-store.js';
import type { AlarmsRepository } from './sqlite/alarms-repo.js';
import type { AttemptsRepository } from './sqlite/attempts-repo.js';
import type { AutomationsRepository } from './sqlite/automations-repo.js';
import type { DeliveriesRepository } from './sqlite/deliveries-repo.js';
import type { DeliveryBatchStore } from './delivery-batch.js';
import type { DeliveryScans } from './sqlite/delivery-scans.js';
import type { ExecutorsRepository } from './sqlite/executors-repo.js';
import type { FactoriesRepository } from './sqlite/factories-repo.js';
import type { LinksRepository } from './sqlite/links-repo.js';
import type { MetricsReader } from './sqlite/metrics-reader.js';
import type { Retention } from './sqlite/retention.js';
import type { RunsRepository } from './sqlite/runs-repo.js';
import type { SecretsRepository } from './sqlite/secrets-repo.js';
import type { SettingsRepository } from './sqlite/settings-repo.js';
import type { StorePeers } from './store-peers.js';
import type { TokensRepository } from './sqlite/tokens-repo.js';
import type { WebhooksRepository } from './sqlite/webhooks-repo.js';

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
  factories: Async<FactoriesRepository>;
  webhooks: Async<WebhooksRepository>;
  automations: Async<AutomationsRepository>;
  deliveries: Async<DeliveriesRepository>;
  runs: Async<RunsRepository>;
  secrets: Async<SecretsRepository>;
  tokens: Async<TokensRepository>;
  settings: Async<SettingsRepository>;
  executors: Async<ExecutorsRepository>;
  alarms: Async<AlarmsRepository>;
  attempts: Async<AttemptsRepository>;
  scans: Async<DeliveryScans>;
  retention: Async<Retention>;
  metrics: Async<MetricsReader>;
  /** Provider links and the recovery ledger (PRODUCT §19). */
  links: Async<LinksRepository>;
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
