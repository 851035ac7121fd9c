import type { RelayEvent } from '../../shared/contract/events.js';
import type { EventBus } from '../events.js';
import { describeError, type Logger } from '../log.js';
import { deliveryJson } from '../service/to-json.js';
import type { CommittedDelivery } from '../store/delivery-batch.js';
import { soloPeers, type SharedResource, type StorePeers } from '../store/store-peers.js';
import type { Store } from '../store/store.js';

export interface PeerBridgeDeps {
  peers: StorePeers;
  events: EventBus;
  store: Pick<Store, 'deliveries' | 'runs' | 'attempts'>;
  /** Reads again what this relay holds in memory of `resource` (the change table, on-changed.ts). */
  reload: (resource: SharedResource) => Promise<void>;
  /** Deliveries another relay committed, for what watches commits (alarms). */
  onForeignCommits: (committed: CommittedDelivery[]) => void;
  /** Another relay queued or changed runs: look at the queue. */
  wake: () => void;
  /** Another relay took over a run this one executes (its lease had ended). */
  abandonRun: (runId: string) => void;
  log: Logger;
}

/** Relays that did not confirm a change in time still read it at their next resync poll. */
export function warnLagging(log: Logger, resource: SharedResource, lagging: string[]): void {
  if (lagging.length === 0) return;
  log.warn(
    `[replicas] relays ${lagging.join(', ')} did not confirm the change to ${resource} within 10 s; they read it at their next poll (5 s)`,
  );
}

export interface PeerBridge {
  /**
   * Resolves once every change this relay announced so far is in every live relay's caches (or
   * the wait for one ran out, which is logged): a management write answers after it, so a
   * delivery sent to any relay next is planned with what was saved.
   */
  settled(): Promise<void>;
  stop(): void;
}

/**
 * Keeps this relay in step with the others on its store: what it writes is published (ids), what
 * others write reaches its caches and its UI's live events as if written here. Secrets are
 * announced by TeamSecrets itself, which waits for every relay too. On SQLite the relay is alone
 * and nothing travels.
 */
export function bridgePeers(deps: PeerBridgeDeps): PeerBridge {
  const { peers, events, log } = deps;
  // Alone on its store (SQLite): no listener on the bus, so that a relay nobody watches builds no
  // live entries (commit-effects.ts; a payload read back per delivery, issue 25).
  if (peers === soloPeers) return { settled: () => Promise.resolve(), stop: () => undefined };
  let relaying = false;
  const announcing = new Set<Promise<void>>();
  const relay = (event: RelayEvent): void => {
    relaying = true;
    try {
      events.emit(event);
    } finally {
      relaying = false;
    }
  };
  const failed = (what: string) => (error: unknown) =>
    log.error(`[replicas] ${what}: ${describeError(error)}`);

  const unsubscribers = [
    events.subscribe((event) => {
      if (relaying) return;
      if (event.type === 'delivery') peers.publish('deliveries', [event.delivery.id]);
      else if (event.type === 'run') peers.publish('runs', [event.run.id]);
      else if (event.type === 'attempt') peers.publish('attempts', [event.attempt.id]);
      else if (event.type === 'changed' && event.resource !== 'secrets') announce(event.resource);
    }),
    peers.subscribe('deliveries', (ids) => {
      deps.wake();
      if (ids) void readDeliveries(ids).catch(failed('reading deliveries of another relay'));
    }),
    peers.subscribe('runs', (ids) => {
      deps.wake();
      if (ids) void readRuns(ids).catch(failed('reading runs of another relay'));
    }),
    peers.subscribe('attempts', (ids) => {
      if (ids) void readAttempts(ids).catch(failed('reading forward attempts of another relay'));
    }),
  ];
  peers.onChange(async (resource) => {
    await deps.reload(resource);
    relay({ type: 'changed', resource });
  });
  peers.onRunLost((runId) => deps.abandonRun(runId));

  function announce(resource: SharedResource): void {
    const done: Promise<void> = peers
      .announce(resource, true)
      .then((lagging) => warnLagging(log, resource, lagging), failed(`announcing ${resource}`))
      .finally(() => announcing.delete(done));
    announcing.add(done);
  }

  async function readDeliveries(ids: readonly string[]): Promise<void> {
    const committed: CommittedDelivery[] = [];
    for (const id of ids) {
      const delivery = await deps.store.deliveries.get(id);
      if (delivery) committed.push(delivery);
    }
    deps.onForeignCommits(committed);
    for (const delivery of committed) relay({ type: 'delivery', delivery: deliveryJson(delivery) });
  }

  async function readRuns(ids: readonly string[]): Promise<void> {
    for (const id of ids) {
      const run = await deps.store.runs.get(id);
      if (!run) continue;
      const { automationId, deliveryId, status } = run;
      relay({ type: 'run', run: { id, automationId, deliveryId, status } });
    }
  }

  async function readAttempts(ids: readonly string[]): Promise<void> {
    for (const id of ids) {
      const attempt = await deps.store.attempts.get(id);
      if (!attempt) continue;
      relay({
        type: 'attempt',
        attempt: {
          id,
          deliveryId: attempt.deliveryId,
          webhookUid: attempt.webhookUid,
          status: attempt.status,
        },
      });
    }
  }

  return {
    settled: async () => void (await Promise.all(announcing)),
    stop: () => {
      for (const unsubscribe of unsubscribers) unsubscribe();
    },
  };
}
