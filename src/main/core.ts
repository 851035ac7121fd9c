import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { version } from '../../package.json';
import { createAdminApp } from './admin/app.js';
import { AlarmMonitor } from './alarms/monitor.js';
import { AlarmNotifier } from './alarms/notifier.js';
import { loadAdminToken, type AdminToken } from './admin/admin-token.js';
import { AdminAuth } from './admin/auth.js';
import { AutomationIndex } from './automations/automation-index.js';
import type { CoreConfig } from './config.js';
import { DefinitionSync } from './definitions/sync.js';
import { EventBus } from './events.js';
import { listen, type Listener } from './http/listener.js';
import { createIngressHandler } from './ingress/door.js';
import {
  DEDUPE_WINDOW_MS,
  DELIVERIES_PER_MINUTE,
  FAILED_AUTH_BUDGET,
  FAILED_AUTH_WINDOW_MS,
  RATE_WINDOW_MS,
  WEBHOOKS_PER_FACTORY,
} from './ingress/limits.js';
import { getSignatureScheme } from './ingress/schemes/index.js';
import { RefusalTally } from './ingress/refusal-tally.js';
import { SlidingWindowLimiter } from './ingress/sliding-window.js';
import { WebhookDirectory } from './ingress/webhook-directory.js';
import { consoleLogger, describeError, type Logger } from './log.js';
import { createRelayMetrics } from './metrics/relay-metrics.js';
import { timedBatchStore } from './metrics/timed-batch-store.js';
import { RunDispatcher } from './runs/dispatcher.js';
import { chooseSecretStore } from './secrets/choose-store.js';
import { TeamSecrets } from './secrets/team-secrets.js';
import { createManagementService, type ServiceHandlers } from './service/index.js';
import { RelaySettings } from './service/relay-settings.js';
import { SerialQueue } from './service/serial-queue.js';
import { deliveryJson } from './service/to-json.js';
import { createAlarmsRepository } from './store/alarms-repo.js';
import { createAttemptsRepository } from './store/attempts-repo.js';
import { createAutomationsRepository } from './store/automations-repo.js';
import { openDatabase, type Db } from './store/db.js';
import { createDeliveriesRepository } from './store/deliveries-repo.js';
import { createDeliveryScans } from './store/delivery-scans.js';
import { DeliveryWriter } from './store/delivery-writer.js';
import { SqliteWriterThread } from './store/sqlite-writer-thread.js';
import { createExecutorsRepository } from './store/executors-repo.js';
import { DEFAULT_FACTORY_ID, createFactoriesRepository } from './store/factories-repo.js';
import { createMetricsReader } from './store/metrics-reader.js';
import { createRetention } from './store/retention.js';
import { createRunsRepository } from './store/runs-repo.js';
import { createSecretsRepository } from './store/secrets-repo.js';
import { createSettingsRepository } from './store/settings-repo.js';
import { createTokensRepository } from './store/tokens-repo.js';
import { createWebhooksRepository } from './store/webhooks-repo.js';

const HOUR_MS = 60 * 60_000;

export interface Core {
  version: string;
  db: Db;
  /** Where accepted deliveries are committed (the writer thread's own connection to `db`'s file). */
  writerThread: SqliteWriterThread;
  service: ServiceHandlers;
  events: EventBus;
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

  const dbFile = join(config.dataDir, 'hookport.sqlite');
  const db = openDatabase(dbFile);
  const factories = createFactoriesRepository(db);
  factories.ensure(DEFAULT_FACTORY_ID, 'Default factory', now());
  const webhooks = createWebhooksRepository(db);
  const deliveries = createDeliveriesRepository(db);
  const tokens = createTokensRepository(db);
  const automations = createAutomationsRepository(db);
  const settings = new RelaySettings(createSettingsRepository(db));
  if (config.publicUrl) settings.publicUrl = config.publicUrl.replace(/\/+$/, '');

  const secretsRepo = createSecretsRepository(db);
  const store =
    config.secretStore ??
    (await chooseSecretStore({
      dataDir: config.dataDir,
      masterKeyFromEnv: config.masterKeyFromEnv,
      forced: config.secretBackend,
      remembered: secretsRepo.all().length > 0 ? settings.secretBackend : undefined,
      probeRunner: config.keychainProbeRunner,
    }));
  settings.secretBackend = store.backend;
  const secrets = new TeamSecrets(secretsRepo, store, now);
  for (const account of await secrets.load()) {
    log.warn(
      `[secrets] ${account} has no value in the ${store.backend} store; its webhooks will answer 401`,
    );
  }

  const events = new EventBus();
  const directory = new WebhookDirectory(webhooks);
  const automationIndex = new AutomationIndex(automations, () => webhooks.live().map((w) => w.uid));
  // A deleted webhook fires nothing: replan without it. Automation changes made elsewhere than
  // the automations service (definition sync) replan too. Writes are rare; a reload is cheap.
  events.subscribe((event) => {
    if (event.type !== 'changed') return;
    if (event.resource === 'webhooks' || event.resource === 'automations') automationIndex.reload();
  });
  const runs = createRunsRepository(db);
  const executors = createExecutorsRepository(db);
  const dispatcher = new RunDispatcher({
    runs,
    executorOf: (factoryId) => executors.get(factoryId),
    events,
    dataDir: config.dataDir,
    log,
    now,
  });
  const refusals = new RefusalTally(log);
  const alarmsRepo = createAlarmsRepository(db);
  const alarms = new AlarmMonitor({
    alarms: alarmsRepo,
    webhooks,
    notifier: new AlarmNotifier(log),
    events,
    log,
    now,
  });
  // Enabled, disabled or deleted: a webhook's alarms follow at once.
  events.subscribe((event) => {
    if (event.type === 'changed' && event.resource === 'webhooks') alarms.evaluate();
  });
  const metrics = createRelayMetrics({
    db: createMetricsReader(db),
    refusals,
    alarms: () => alarms.active(),
    now,
  });
  const adminToken = loadAdminToken(config.dataDir, config.adminTokenFromEnv);
  // Deliveries commit on a thread of their own: parsing and verifying the next requests goes on
  // while a batch is written and fsynced. The search indexer runs there too, between batches.
  let writerThread: SqliteWriterThread;
  try {
    writerThread = await SqliteWriterThread.start({
      file: dbFile,
      options: { dedupeWindowMs: DEDUPE_WINDOW_MS },
      log,
      idleCloseMs: config.writerIdleCloseMs,
    });
  } catch (error) {
    db.close();
    throw new Error(`The SQLite writer thread could not start: ${describeError(error)}`, {
      cause: error,
    });
  }
  const writer = new DeliveryWriter(
    timedBatchStore(writerThread, (seconds) => metrics.observeCommit(seconds)),
    {
      onError: (error) =>
        log.error(`[store] a delivery batch failed to commit: ${describeError(error)}`),
      onCommit: (committed) => {
        metrics.countCommitted(committed);
        alarms.onCommitted(committed);
        for (const d of committed) events.emit({ type: 'delivery', delivery: deliveryJson(d) });
        if (committed.some((d) => d.runIds.length > 0)) dispatcher.wake();
      },
    },
  );
  const rateLimiter = new SlidingWindowLimiter(
    config.limits?.deliveriesPerMinute ?? DELIVERIES_PER_MINUTE,
    RATE_WINDOW_MS,
  );
  const failedAuth = new SlidingWindowLimiter(FAILED_AUTH_BUDGET, FAILED_AUTH_WINDOW_MS);

  const ingressHandler = createIngressHandler({
    webhooks: directory,
    secrets,
    schemes: getSignatureScheme,
    writer,
    planRuns: (webhook, deliveryId, payload, newRunId, seen) =>
      automationIndex.plan(webhook, deliveryId, payload, newRunId, seen),
    rateLimiter,
    failedAuth,
    trustProxy: config.trustProxy ?? false,
    storeKind: 'sqlite',
    now,
    log,
    refusals,
  });

  const auth = new AdminAuth(adminToken.value, tokens, now);
  const writes = new SerialQueue();
  const webhookLimit = config.limits?.webhooksPerFactory ?? WEBHOOKS_PER_FACTORY;
  const definitions = new DefinitionSync({
    db,
    factories,
    webhooks,
    automations,
    runs,
    secrets,
    directory,
    automationIndex,
    events,
    writes,
    webhookLimit,
    log,
    now,
  });
  if (config.definitionsDir) {
    // A broken definition at start is an error, not a relay serving half a factory.
    try {
      await definitions.sync(DEFAULT_FACTORY_ID, { dir: config.definitionsDir });
    } catch (error) {
      await writerThread.close();
      db.close();
      throw error;
    }
  }
  const service = createManagementService({
    factories,
    webhooks,
    deliveries,
    tokens,
    secrets,
    directory,
    settings,
    events,
    writes,
    definitions,
    limits: { webhooksPerFactory: webhookLimit },
    version,
    cliCommand: config.cliCommand ?? 'hookport',
    now,
    automations,
    automationIndex,
    runs,
    executors,
    writer,
    dispatcher,
    refusals,
    alarms: { monitor: alarms, repo: alarmsRepo },
    log,
    attempts: createAttemptsRepository(db),
    scans: createDeliveryScans(db),
    forwardTimeoutMs: config.forwardTimeoutMs,
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
        storeKind: 'sqlite',
        log,
      })
    : null;
  try {
    ingress = await listen(ingressHandler, config.ingress.host, config.ingress.port);
    if (adminApp) admin = await listen(adminApp.app.callback(), '127.0.0.1', adminPort);
  } catch (error) {
    await ingress?.close();
    await writerThread.close();
    db.close();
    throw error;
  }
  adminPort = admin?.port ?? 0;
  // Queued runs survive restarts; what was running when the relay died becomes interrupted.
  dispatcher.start();
  alarms.start();
  definitions.watchManaged();
  settings.listenerBaseUrl = displayUrl(config.ingress.host, ingress.port);
  const adminUrl = admin ? displayUrl('127.0.0.1', admin.port) : null;

  const retention = createRetention(db);
  const prune = (): void => {
    const policy = {
      days: settings.retentionDays,
      minPerWebhook: settings.retentionMinPerWebhook,
      dedupeWindowMs: DEDUPE_WINDOW_MS,
    };
    retention.prune(policy, now()).then(
      (removed) => removed > 0 && log.info(`[retention] pruned ${removed} deliveries`),
      (error: unknown) => log.error(`[retention] ${describeError(error)}`),
    );
  };
  prune();
  const timers = [
    setInterval(prune, HOUR_MS),
    setInterval(() => {
      rateLimiter.sweep(now());
      failedAuth.sweep(now());
    }, 60_000),
  ];
  for (const timer of timers) timer.unref();

  let stopping: Promise<void> | null = null;
  return {
    version,
    db,
    writerThread,
    service,
    events,
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
        alarms.stop();
        adminApp?.streams.closeAll();
        await Promise.all([ingress.close(), admin?.close()]);
        refusals.stop();
        await writer.drain();
        await writerThread.close();
        await dispatcher.stop();
        await definitions.close();
        db.close();
      })()),
  };
}
