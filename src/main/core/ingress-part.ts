import type { CoreConfig } from '../config.js';
import { DEFAULT_DEADLINES, listen, type Listener } from '../http/listener.js';
import { createIngressHandler } from '../ingress/flow.js';
import {
  DELIVERIES_PER_MINUTE,
  FAILED_AUTH_BUDGET,
  FAILED_AUTH_WINDOW_MS,
  RATE_WINDOW_MS,
  UNAUTHENTICATED_PER_WEBHOOK_BUDGET,
} from '../ingress/limits.js';
import type { RefusalTally } from '../ingress/refusal-tally.js';
import { getSignatureScheme } from '../ingress/schemes/index.js';
import { describeError, type Logger } from '../log.js';
import { timedBatchStore } from '../metrics/timed-batch-store.js';
import { COMMIT_PROBE_KEY, CommitHealth } from '../store/commit-health.js';
import { DeliveryWriter } from '../store/delivery-writer.js';
import type { Store } from '../store/store.js';
import { commitEffects } from './commit-effects.js';
import type { Jobs } from './jobs-part.js';
import type { RelayState } from './state-part.js';

const SWEEP_EVERY_MS = 60_000;

/** The webhook listener: deliveries in, group-committed to the store. */
export interface IngressPart {
  /** Where accepted deliveries (and replays) are committed. */
  writer: DeliveryWriter;
  /** Starts the listener and the rate windows' sweep. */
  listen(host: string, port: number): Promise<Listener>;
  /** Stops the sweep; the listener is closed by its owner. */
  halt(): void;
  /** Once the listener is closed: every delivery it accepted is committed. */
  drain(): Promise<void>;
}

export interface IngressPartDeps {
  store: Store;
  state: Pick<RelayState, 'directory' | 'automationIndex' | 'secrets' | 'events'>;
  jobs: Pick<Jobs, 'metrics' | 'alarms' | 'links' | 'dispatcher'>;
  refusals: RefusalTally;
  config: Pick<CoreConfig, 'limits' | 'trustProxy' | 'ingressDeadlines'>;
  log: Logger;
  now: () => number;
}

export function createIngressPart(deps: IngressPartDeps): IngressPart {
  const { store, state, jobs, log, now } = deps;
  // The ingress /healthz answers 503 while the store cannot commit (commit-health.ts).
  const storeHealth = new CommitHealth({
    probe: () => store.settings.set(COMMIT_PROBE_KEY, now()),
    now,
    log,
  });
  const writer = new DeliveryWriter(
    timedBatchStore(store.batchStore, (seconds) => jobs.metrics.observeCommit(seconds)),
    {
      maxInFlight: store.batchStore.commitsInFlight,
      ...commitEffects({
        store,
        storeHealth,
        metrics: jobs.metrics,
        alarms: jobs.alarms,
        links: jobs.links,
        dispatcher: jobs.dispatcher,
        events: state.events,
        log,
      }),
    },
  );
  const gates = rateGates(store, deps.config);
  const handler = createIngressHandler({
    webhooks: state.directory,
    secrets: state.secrets,
    schemes: getSignatureScheme,
    writer,
    planRuns: (webhook, deliveryId, payload, newRunId, seen) =>
      state.automationIndex.plan(webhook, deliveryId, payload, newRunId, seen),
    hasAutomations: (uid) => state.automationIndex.selects(uid),
    ...gates,
    trustProxy: deps.config.trustProxy ?? false,
    storeKind: store.kind,
    storeHealth,
    now,
    log,
    refusals: deps.refusals,
  });
  let sweeping: NodeJS.Timeout | null = null;
  return {
    writer,
    async listen(host, port) {
      const listener = await listen(handler, host, port, {
        ...DEFAULT_DEADLINES,
        ...deps.config.ingressDeadlines,
      });
      sweeping = setInterval(() => {
        for (const gate of Object.values(gates)) {
          Promise.resolve(gate.sweep(now())).catch((error: unknown) =>
            log.error(`[limits] ${describeError(error)}`),
          );
        }
      }, SWEEP_EVERY_MS);
      sweeping.unref();
      return listener;
    },
    halt: () => {
      if (sweeping) clearInterval(sweeping);
    },
    drain: async () => {
      deps.refusals.stop();
      await writer.drain();
    },
  };
}

/** Shared by every relay on the store, counted on the database's clock; on SQLite, in memory. */
function rateGates(store: Store, config: Pick<CoreConfig, 'limits'>) {
  return {
    rateLimiter: store.rateGate(
      'deliveries',
      config.limits?.deliveriesPerMinute ?? DELIVERIES_PER_MINUTE,
      RATE_WINDOW_MS,
    ),
    failedAuth: store.rateGate('failed-auth', FAILED_AUTH_BUDGET, FAILED_AUTH_WINDOW_MS),
    unauthenticated: store.rateGate(
      'unauthenticated',
      UNAUTHENTICATED_PER_WEBHOOK_BUDGET,
      FAILED_AUTH_WINDOW_MS,
    ),
  };
}
