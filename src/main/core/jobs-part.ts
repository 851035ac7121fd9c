import { AlarmMonitor } from '../alarms/monitor.js';
import { AlarmNotifier } from '../alarms/notifier.js';
import { LoopDelayWatch } from '../alarms/loop-delay.js';
import type { CoreConfig } from '../config.js';
import { DEDUPE_WINDOW_MS } from '../ingress/limits.js';
import type { RefusalTally } from '../ingress/refusal-tally.js';
import { LinkAlarms } from '../alarms/link-alarms.js';
import { providerClients } from '../links/clients.js';
import { LinkKeeper } from '../links/link-keeper.js';
import { createLinkMetrics } from '../links/link-metrics.js';
import { DEFAULT_TIMING } from '../links/provider.js';
import { WakeDetector } from '../links/wake-detector.js';
import { describeError, type Logger } from '../log.js';
import { RunMcpAccessGate } from '../mcp/run-access.js';
import { RunTokens } from '../mcp/run-tokens.js';
import { createRelayMetrics, type RelayMetrics } from '../metrics/relay-metrics.js';
import { RunDispatcher } from '../runs/dispatcher.js';
import { INTERRUPTED_BY_LOST_RELAY, lostRelayProgramStopped } from '../runs/interrupted.js';
import { DEFAULT_FACTORY_ID } from '../store/factories.js';
import type { Store } from '../store/store.js';
import { createRelayTunnel, type RelayTunnel } from '../tunnels/relay-tunnel.js';
import type { RelayState } from './state-part.js';

const HOUR_MS = 60 * 60_000;

/** What the relay does on its own: runs, alarms, the tunnel, provider links, retention. */
export interface Jobs {
  runTokens: RunTokens;
  dispatcher: RunDispatcher;
  alarms: AlarmMonitor;
  tunnel: RelayTunnel;
  metrics: RelayMetrics;
  links: LinkKeeper;
  wake: WakeDetector;
  /** Runs, alarms and the loop watch; `mcpUrl` first: a run taken at once may be given it. */
  startRuns(mcpUrl: string | null): Promise<void>;
  /** Once the ingress listens on `port`: provider links, the wake detector, the tunnel, retention. */
  startOutward(port: number): Promise<void>;
  /** Timers and watches end; what is in flight ends in the relay's later stop steps. */
  halt(): void;
}

export interface JobsDeps {
  store: Store;
  state: RelayState;
  /** The ingress's refusals, which the metrics count. */
  refusals: RefusalTally;
  config: Pick<CoreConfig, 'dataDir' | 'tunnel' | 'links'>;
  log: Logger;
  now: () => number;
}

export function createJobs(deps: JobsDeps): Jobs {
  const { store, state, log, now } = deps;
  const runTokens = new RunTokens();
  const mcpAccess = new RunMcpAccessGate(state.settings, runTokens);
  const dispatcher = new RunDispatcher({
    mcpAccess,
    runs: store.runs,
    executorOf: (factoryId) => store.executors.get(factoryId),
    events: state.events,
    dataDir: deps.config.dataDir,
    log,
    now,
  });
  const alarms = new AlarmMonitor({
    alarms: store.alarms,
    webhooks: store.webhooks,
    notifier: new AlarmNotifier(log),
    events: state.events,
    log,
    now,
    links: new LinkAlarms(() => store.links.live()),
  });
  const loopDelay = new LoopDelayWatch(log);
  const tunnel = relayTunnel(deps);
  const metrics = createRelayMetrics({
    tunnelUp: () => state.reachability.tunnel.state === 'up',
    db: store.metrics,
    refusals: deps.refusals,
    alarms: () => alarms.active(),
    now,
    loopDelay,
  });
  const links = linkKeeper(deps, metrics, alarms);
  const wake = new WakeDetector(
    (at, sleptSeconds) => state.reachability.woke(at, sleptSeconds),
    now,
    deps.config.links?.wakeTicker,
  );
  let stopRetention = (): void => undefined;
  return {
    runTokens,
    dispatcher,
    alarms,
    tunnel,
    metrics,
    links,
    wake,
    async startRuns(mcpUrl) {
      mcpAccess.url = mcpUrl;
      // Queued runs survive restarts; what was running when the relay died becomes interrupted.
      // A relay gone from a shared store leaves runs whose lease ends; whoever ends them stops
      // their program if it still runs on this machine.
      store.peers.reapRunsWith((run) =>
        dispatcher.interruptedReason(run, INTERRUPTED_BY_LOST_RELAY, lostRelayProgramStopped),
      );
      await dispatcher.start();
      alarms.start();
      loopDelay.start();
    },
    async startOutward(port) {
      links.start();
      wake.start();
      state.reachability.started();
      await tunnel.start(port);
      stopRetention = keepRetention(deps);
    },
    halt() {
      stopRetention();
      wake.stop();
      alarms.stop();
      loopDelay.stop();
    },
  };
}

function relayTunnel({ store, state, config, log, now }: JobsDeps): RelayTunnel {
  return createRelayTunnel({
    reachability: state.reachability,
    settings: state.settings,
    sharedStore: store.kind !== 'sqlite',
    secret: (name) => state.secrets.cachedValue(DEFAULT_FACTORY_ID, name),
    notifications: async () =>
      (
        await Promise.all((await store.factories.all()).map((f) => store.alarms.notification(f.id)))
      ).filter((n) => n !== null),
    notifier: new AlarmNotifier(log),
    events: state.events,
    dataDir: config.dataDir,
    log,
    now,
    config: config.tunnel,
  });
}

function linkKeeper(
  { store, state, config, log, now }: JobsDeps,
  metrics: RelayMetrics,
  alarms: AlarmMonitor,
) {
  const linkMetrics = createLinkMetrics(metrics.registry, () => store.links.live());
  return new LinkKeeper({
    store,
    secrets: state.secrets,
    settings: state.settings,
    reachability: state.reachability,
    events: state.events,
    clients: providerClients({ ...DEFAULT_TIMING, ...config.links?.timing }),
    log,
    now,
    recoverEveryMs: config.links?.recoverEveryMs,
    onRecovered: (link, n) => linkMetrics.countRecovered(link.kind, n),
    onCheck: (uid, check, previous) => void alarms.linkChecked(uid, check, previous),
  });
}

/** Prunes now and every hour; answers how to stop. */
function keepRetention({ store, state, log, now }: JobsDeps): () => void {
  const prune = (): void => {
    const policy = {
      days: state.settings.retentionDays,
      minPerWebhook: state.settings.retentionMinPerWebhook,
      dedupeWindowMs: DEDUPE_WINDOW_MS,
    };
    // One relay of a shared store at a time; the others find it done.
    store
      .exclusively('retention', () => store.retention.prune(policy, now()))
      .then(
        (outcome) =>
          outcome.ran &&
          outcome.value > 0 &&
          log.info(`[retention] pruned ${outcome.value} deliveries`),
        (error: unknown) => log.error(`[retention] ${describeError(error)}`),
      );
  };
  prune();
  const timer = setInterval(prune, HOUR_MS);
  timer.unref();
  return () => clearInterval(timer);
}
