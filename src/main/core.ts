import { mkdirSync } from 'node:fs';
import { version } from '../../package.json';
import { createAdminApp } from './admin/app.js';
import { LinkAlarms } from './alarms/link-alarms.js';
import { AlarmMonitor } from './alarms/monitor.js';
import { AlarmNotifier } from './alarms/notifier.js';
import { LoopDelayWatch } from './alarms/loop-delay.js';
import { loadAdminToken, type AdminToken } from './admin/admin-token.js';
import { AdminAuth } from './admin/auth.js';
import { AutomationIndex } from './automations/automation-index.js';
import type { CoreConfig } from './config.js';
import { DefinitionSync } from './definitions/sync.js';
import { EventBus } from './events.js';
import { Reachability } from './reachability.js';
import { listen, type Listener } from './http/listener.js';
import { providerClients } from './links/clients.js';
import { LinkKeeper } from './links/link-keeper.js';
import { createLinkMetrics } from './links/link-metrics.js';
import { DEFAULT_TIMING } from './links/provider.js';
import { WakeDetector } from './links/wake-detector.js';
import { createIngressHandler } from './ingress/door.js';
import {
  DEDUPE_WINDOW_MS,
  DELIVERIES_PER_MINUTE,
  FAILED_AUTH_BUDGET,
  FAILED_AUTH_WINDOW_MS,
  UNAUTHENTICATED_PER_WEBHOOK_BUDGET,
  RATE_WINDOW_MS,
  WEBHOOKS_PER_FACTORY,
} from './ingress/limits.js';
import { getSignatureScheme } from './ingress/schemes/index.js';
import { RefusalTally } from './ingress/refusal-tally.js';
import { WebhookDirectory } from './ingress/webhook-directory.js';
import { consoleLogger, describeError, type Logger } from './log.js';
import { createRelayMetrics } from './metrics/relay-metrics.js';
import { timedBatchStore } from './metrics/timed-batch-store.js';
import { RunDispatcher } from './runs/dispatcher.js';
import { RunMcpAccessGate } from './mcp/run-access.js';
import { RunTokens } from './mcp/run-tokens.js';
import { INTERRUPTED_BY_LOST_RELAY, lostRelayProgramStopped } from './runs/interrupted.js';
import { chooseSecretStore } from './secrets/choose-store.js';
import { TeamSecrets } from './secrets/team-secrets.js';
import { createManagementService, type ServiceHandlers } from './service/index.js';
import { RelaySettings } from './service/relay-settings.js';
import { SerialQueue } from './service/serial-queue.js';
import { deliveryJson } from './service/to-json.js';
import { withReadSummaries } from './service/read-summaries.js';
import { DeliveryWriter } from './store/delivery-writer.js';
import { COMMIT_PROBE_KEY, CommitHealth } from './store/commit-health.js';
import { DEFAULT_FACTORY_ID } from './store/factories-repo.js';
import { openStore } from './store/open-store.js';
import { bridgePeers, warnLagging } from './replicas/peer-bridge.js';
import type { Store } from './store/store.js';
import { createRelayTunnel, type RelayTunnel } from './tunnels/relay-tunnel.js';

const HOUR_MS = 60 * 60_000;

export interface Core {
  version: string;
  /** Everything the relay keeps (SQLite unless `CoreConfig.openStore` chose another). */
  store: Store;
  service: ServiceHandlers;
  events: EventBus;
  /** Tunnel and wake state; where provider links hear that the relay moved or is back. */
  reachability: Reachability;
  /** The tunnel this relay runs (PRODUCT §18), if any. */
  tunnel: RelayTunnel;
  /** Provider links: keeps hooks pointed, recovers failed deliveries (`idle()` for tests). */
  links: LinkKeeper;
  /** Notices the machine slept (§20); the desktop app also reports powerMonitor's `resume` here. */
  wake: WakeDetector;
  secrets: TeamSecrets;
  adminToken: AdminToken;
  auth: AdminAuth;
  /** Quiet webhooks and Rejected (auth) streaks; `evaluate()` checks now (tests with a clock). */
  alarms: AlarmMonitor;
  /** e.g. http://127.0.0.1:8787 — where the ingress listener really is. */
  ingressListenUrl: string;
  /** Null when started without an admin listener (the desktop app uses IPC). */
  adminUrl: string | null;
  /** A fresh single-use login link for the UI (needs the admin listener). */
  loginLink(): string;
  /** Drains in-flight deliveries, ends event streams, commits the last batch, closes the database. */
  stop(): Promise<void>;
}

function displayUrl(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}

/** Wires the store, secrets, ingress, management service and admin listener, and starts them. */
export async function startCore(config: CoreConfig): Promise<Core> {
  const log: Logger = config.log ?? consoleLogger;
  const now = config.now ?? Date.now;
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });

  const open =
    config.openStore ??
    ((context) =>
      openStore({
        ...context,
        databaseUrl: config.databaseUrl,
        runLeaseMs: config.runLeaseMs,
        masterKeyFromEnv: config.masterKeyFromEnv,
        writerIdleCloseMs: config.writerIdleCloseMs,
      }));
  const store = await open({ dataDir: config.dataDir, log });
  try {
    return await startOn(store, config, log, now);
  } catch (error) {
    await store.close();
    throw error;
  }
}

async function startOn(
  store: Store,
  config: CoreConfig,
  log: Logger,
  now: () => number,
): Promise<Core> {
  await store.factories.ensure(DEFAULT_FACTORY_ID, 'Default factory', now());
  const settings = await RelaySettings.load(store.settings);
  if (config.publicUrl) await settings.setPublicUrl(config.publicUrl.replace(/\/+$/, ''));
  const reachability = new Reachability(settings);

  const secretStore =
    config.secretStore ??
    store.secretStore ??
    (await chooseSecretStore({
      dataDir: config.dataDir,
      masterKeyFromEnv: config.masterKeyFromEnv,
      forced: config.secretBackend,
      remembered: (await store.secrets.all()).length > 0 ? settings.secretBackend : undefined,
      probeRunner: config.keychainProbeRunner,
    }));
  await settings.setSecretBackend(secretStore.backend);
  // A rotation answers once every relay on the store uses the new value (§16).
  const secrets = new TeamSecrets(store.secrets, secretStore, now, async () =>
    warnLagging(log, 'secrets', await store.peers.announce('secrets', true)),
  );
  for (const account of await secrets.load()) {
    log.warn(
      `[secrets] ${account} has no value in the ${secretStore.backend} store; its webhooks will answer 401`,
    );
  }

  const events = new EventBus();
  const directory = await WebhookDirectory.load(store.webhooks);
  const automationIndex = await AutomationIndex.load(store.automations, async () =>
    (await store.webhooks.live()).map((w) => w.uid),
  );
  const reportReloadError = (error: unknown): void =>
    log.error(`[automations] could not reload the automation index: ${describeError(error)}`);
  // A deleted webhook fires nothing: replan without it. Automation changes made elsewhere than
  // the automations service (definition sync) replan too. Writes are rare; a reload is cheap.
  events.subscribe((event) => {
    if (event.type !== 'changed') return;
    if (event.resource === 'webhooks' || event.resource === 'automations')
      automationIndex.reload().catch(reportReloadError);
  });
  const runTokens = new RunTokens();
  const mcpAccess = new RunMcpAccessGate(settings, runTokens);
  const dispatcher = new RunDispatcher({
    mcpAccess,
    runs: store.runs,
    executorOf: (factoryId) => store.executors.get(factoryId),
    events,
    dataDir: config.dataDir,
    log,
    now,
  });
  const refusals = new RefusalTally(log);
  const alarms = new AlarmMonitor({
    alarms: store.alarms,
    webhooks: store.webhooks,
    notifier: new AlarmNotifier(log),
    events,
    log,
    now,
    links: new LinkAlarms(() => store.links.live()),
  });
  // Enabled, disabled or deleted: a webhook's alarms follow at once.
  events.subscribe((event) => {
    if (event.type === 'changed' && event.resource === 'webhooks') void alarms.evaluate();
  });
  const loopDelay = new LoopDelayWatch(log);
  const tunnel = createRelayTunnel({
    reachability,
    settings,
    sharedStore: store.kind !== 'sqlite',
    secret: (name) => secrets.cachedValue(DEFAULT_FACTORY_ID, name),
    notifications: async () =>
      (
        await Promise.all((await store.factories.all()).map((f) => store.alarms.notification(f.id)))
      ).filter((n) => n !== null),
    notifier: new AlarmNotifier(log),
    events,
    dataDir: config.dataDir,
    log,
    now,
    config: config.tunnel,
  });
  const metrics = createRelayMetrics({
    tunnelUp: () => reachability.tunnel.state === 'up',
    db: store.metrics,
    refusals,
    alarms: () => alarms.active(),
    now,
    loopDelay,
  });
  const linkMetrics = createLinkMetrics(metrics.registry, () => store.links.live());
  const links = new LinkKeeper({
    store,
    secrets,
    settings,
    reachability,
    events,
    clients: providerClients({ ...DEFAULT_TIMING, ...config.links?.timing }),
    log,
    now,
    recoverEveryMs: config.links?.recoverEveryMs,
    onRecovered: (link, n) => linkMetrics.countRecovered(link.kind, n),
    onCheck: (uid, check, previous) => void alarms.linkChecked(uid, check, previous),
  });
  const wake = new WakeDetector(
    (at, sleptSeconds) => reachability.woke(at, sleptSeconds),
    now,
    config.links?.wakeTicker,
  );
  const adminToken = loadAdminToken(config.dataDir, config.adminTokenFromEnv);
  // The ingress /healthz answers 503 while the store cannot commit (commit-health.ts).
  const storeHealth = new CommitHealth({
    probe: () => store.settings.set(COMMIT_PROBE_KEY, now()),
    now,
    log,
  });
  let liveEntries: Promise<void> = Promise.resolve();
  const writer = new DeliveryWriter(
    timedBatchStore(store.batchStore, (seconds) => metrics.observeCommit(seconds)),
    {
      maxInFlight: store.batchStore.commitsInFlight,
      onError: (error) => {
        storeHealth.commitFailed(error);
        log.error(`[store] a delivery batch failed to commit: ${describeError(error)}`);
      },
      onCommit: (committed) => {
        storeHealth.committed();
        metrics.countCommitted(committed);
        alarms.onCommitted(committed);
        const marked = committed.map((d) => ({
          d,
          recovered: links.arrived(d.webhookUid, d.identity, d.label === 'Accepted'),
        }));
        // A live entry reads as the list will: a summary the accept path did not derive (a token
        // webhook nothing parses) is derived from the payload first, in commit order.
        liveEntries = liveEntries.then(async () => {
          for (const { d, recovered } of marked) {
            const [read] = await withReadSummaries({ deliveries: store.deliveries }, null, [
              d,
            ]).catch(() => [d]);
            const delivery = deliveryJson(read ?? d);
            events.emit({
              type: 'delivery',
              delivery: recovered ? { ...delivery, recovered } : delivery,
            });
          }
        });
        if (committed.some((d) => d.runIds.length > 0)) dispatcher.wake();
      },
    },
  );
  // Shared by every relay on the store, counted on the database's clock; on SQLite, in memory.
  const rateLimiter = store.rateGate(
    'deliveries',
    config.limits?.deliveriesPerMinute ?? DELIVERIES_PER_MINUTE,
    RATE_WINDOW_MS,
  );
  const failedAuth = store.rateGate('failed-auth', FAILED_AUTH_BUDGET, FAILED_AUTH_WINDOW_MS);
  const unauthenticated = store.rateGate(
    'unauthenticated',
    UNAUTHENTICATED_PER_WEBHOOK_BUDGET,
    FAILED_AUTH_WINDOW_MS,
  );
  const bridge = bridgePeers({
    peers: store.peers,
    events,
    store,
    reload: {
      // Awaited here, before this relay confirms the change: a delivery it accepts next is
      // planned with it. The `changed` event the bridge then emits rechecks alarms.
      webhooks: async () => {
        await directory.reloadAll();
        await automationIndex.reload();
      },
      automations: () => automationIndex.reload(),
      secrets: async () => void (await secrets.load()),
      settings: async () => {
        await settings.reload();
        reachability.noticeBase();
      },
      tokens: () => Promise.resolve(),
      alarms: () => alarms.evaluate(),
    },
    onForeignCommits: (committed) => alarms.onCommitted(committed),
    wake: () => dispatcher.wake(),
    abandonRun: (runId) => dispatcher.abandon(runId),
    log,
  });

  const ingressHandler = createIngressHandler({
    webhooks: directory,
    secrets,
    schemes: getSignatureScheme,
    writer,
    planRuns: (webhook, deliveryId, payload, newRunId, seen) =>
      automationIndex.plan(webhook, deliveryId, payload, newRunId, seen),
    hasAutomations: (uid) => automationIndex.selects(uid),
    rateLimiter,
    failedAuth,
    unauthenticated,
    trustProxy: config.trustProxy ?? false,
    storeKind: store.kind,
    storeHealth,
    now,
    log,
    refusals,
  });

  const auth = await AdminAuth.start(adminToken.value, store.tokens, now);
  const writes = new SerialQueue();
  const webhookLimit = config.limits?.webhooksPerFactory ?? WEBHOOKS_PER_FACTORY;
  const definitions = new DefinitionSync({
    store,
    secrets,
    directory,
    automationIndex,
    events,
    writes,
    webhookLimit,
    log,
    now,
    onLinked: (uids) => links.followDefinitions(uids),
  });
  if (config.definitionsDir) {
    // A broken definition at start is an error, not a relay serving half a factory.
    await definitions.sync(DEFAULT_FACTORY_ID, { dir: config.definitionsDir });
  }
  const service = createManagementService({
    factories: store.factories,
    webhooks: store.webhooks,
    deliveries: store.deliveries,
    tokens: store.tokens,
    secrets,
    directory,
    settings,
    reachability,
    tunnel,
    links,
    events,
    writes,
    definitions,
    limits: { webhooksPerFactory: webhookLimit },
    version,
    cliCommand: config.cliCommand ?? 'hookport',
    now,
    automations: store.automations,
    automationIndex,
    runs: store.runs,
    executors: store.executors,
    writer,
    dispatcher,
    refusals,
    alarms: { monitor: alarms, repo: store.alarms },
    log,
    attempts: store.attempts,
    scans: store.scans,
    forwardTimeoutMs: config.forwardTimeoutMs,
    peersSettled: () => bridge.settled(),
  });

  let ingress: Listener | null = null;
  let admin: Listener | null = null;
  let adminPort = config.admin?.port ?? 0;
  // The desktop app talks to the service over IPC and opens no admin listener at all.
  const adminApp = config.admin
    ? createAdminApp({
        service,
        auth,
        events,
        uiDir: config.uiDir ?? null,
        metrics,
        port: () => adminPort,
        storeKind: store.kind,
        log,
        runTokens,
      })
    : null;
  try {
    ingress = await listen(ingressHandler, config.ingress.host, config.ingress.port);
    if (adminApp) admin = await listen(adminApp.app.callback(), '127.0.0.1', adminPort);
  } catch (error) {
    await ingress?.close();
    throw error;
  }
  adminPort = admin?.port ?? 0;
  // Before the dispatcher starts: a run it takes at once may be given access already.
  mcpAccess.url = admin ? `${displayUrl('127.0.0.1', admin.port)}/mcp` : null;
  // Queued runs survive restarts; what was running when the relay died becomes interrupted.
  // A relay gone from a shared store leaves runs whose lease ends; whoever ends them stops
  // their program if it still runs on this machine.
  store.peers.reapRunsWith((run) =>
    dispatcher.interruptedReason(run, INTERRUPTED_BY_LOST_RELAY, lostRelayProgramStopped),
  );
  await dispatcher.start();
  alarms.start();
  loopDelay.start();
  await definitions.watchManaged();
  settings.listenerBaseUrl = displayUrl(config.ingress.host, ingress.port);
  const adminUrl = admin ? displayUrl('127.0.0.1', admin.port) : null;
  links.start();
  wake.start();
  reachability.started();
  await tunnel.start(ingress.port);

  const prune = (): void => {
    const policy = {
      days: settings.retentionDays,
      minPerWebhook: settings.retentionMinPerWebhook,
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
  const timers = [
    setInterval(prune, HOUR_MS),
    setInterval(() => {
      for (const gate of [rateLimiter, failedAuth, unauthenticated]) {
        Promise.resolve(gate.sweep(now())).catch((error: unknown) =>
          log.error(`[limits] ${describeError(error)}`),
        );
      }
    }, 60_000),
  ];
  for (const timer of timers) timer.unref();

  let stopping: Promise<void> | null = null;
  return {
    version,
    store,
    service,
    events,
    reachability,
    tunnel,
    links,
    wake,
    secrets,
    adminToken,
    auth,
    alarms,
    ingressListenUrl: settings.listenerBaseUrl,
    adminUrl,
    loginLink: () => {
      if (!adminUrl)
        throw new Error('This relay runs without an admin listener, so it has no login link.');
      return `${adminUrl}/login?token=${auth.mintLoginCode()}`;
    },
    stop: () =>
      (stopping ??= (async () => {
        for (const timer of timers) clearInterval(timer);
        wake.stop();
        alarms.stop();
        loopDelay.stop();
        adminApp?.streams.closeAll();
        await tunnel.stop();
        await Promise.all([ingress.close(), admin?.close()]);
        refusals.stop();
        await writer.drain();
        await dispatcher.stop();
        await definitions.close();
        await alarms.idle();
        await links.stop();
        bridge.stop();
        await store.close();
      })()),
  };
}
