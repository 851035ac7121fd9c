import { mkdirSync } from 'node:fs';
import { version } from '../../package.json';
import { loadAdminToken } from './admin/admin-token.js';
import type { AdminToken } from './admin/admin-token.js';
import type { AdminAuth } from './admin/auth.js';
import type { AlarmMonitor } from './alarms/monitor.js';
import type { CoreConfig } from './config.js';
import { createIngressPart, type IngressPart } from './core/ingress-part.js';
import { createJobs, type Jobs } from './core/jobs-part.js';
import { createManagementPart, type ManagementPart } from './core/management-part.js';
import { changeTable } from './core/on-changed.js';
import { loadRelayState, type RelayState } from './core/state-part.js';
import type { EventBus } from './events.js';
import type { Listener } from './http/listener.js';
import { RefusalTally } from './ingress/refusal-tally.js';
import type { LinkKeeper } from './links/link-keeper.js';
import type { WakeDetector } from './links/wake-detector.js';
import { consoleLogger, type Logger } from './log.js';
import type { Reachability } from './reachability.js';
import { bridgePeers, type PeerBridge } from './replicas/peer-bridge.js';
import type { TeamSecrets } from './secrets/team-secrets.js';
import type { ServiceHandlers } from './service/index.js';
import { openStore } from './store/open-store.js';
import type { Store } from './store/store.js';
import type { RelayTunnel } from './tunnels/relay-tunnel.js';

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
      }));
  const store = await open({ dataDir: config.dataDir, log });
  try {
    return await startOn(store, config, log, now);
  } catch (error) {
    await store.close();
    throw error;
  }
}

/** The relay's parts, built in the order they need one another. */
interface Parts {
  store: Store;
  state: RelayState;
  jobs: Jobs;
  ingress: IngressPart;
  management: ManagementPart;
  bridge: PeerBridge;
  adminToken: AdminToken;
}

async function startOn(
  store: Store,
  config: CoreConfig,
  log: Logger,
  now: () => number,
): Promise<Core> {
  const state = await loadRelayState(store, config, log, now);
  const refusals = new RefusalTally(log);
  const jobs = createJobs({ store, state, refusals, config, log, now });
  const changes = changeTable({ ...state, alarms: jobs.alarms });
  const ingress = createIngressPart({ store, state, jobs, refusals, config, log, now });
  const bridge = bridgePeers({
    peers: store.peers,
    events: state.events,
    store,
    // Awaited before this relay confirms the change: a delivery it accepts next is planned with it.
    reload: (resource) => changes.reload(resource, 'replica'),
    onForeignCommits: (committed) => jobs.alarms.onCommitted(committed),
    wake: () => jobs.dispatcher.wake(),
    abandonRun: (runId) => jobs.dispatcher.abandon(runId),
    log,
  });
  const adminToken = loadAdminToken(config.dataDir, config.adminTokenFromEnv);
  const management = await createManagementPart({
    store,
    state,
    jobs,
    writer: ingress.writer,
    refusals,
    onChanged: changes.onChanged,
    bridge,
    adminToken,
    config,
    log,
    now,
  });
  const parts: Parts = { store, state, jobs, ingress, management, bridge, adminToken };
  return started(parts, await listenBoth(parts, config));
}

async function listenBoth(
  { ingress, management }: Parts,
  config: CoreConfig,
): Promise<{ ingress: Listener; admin: Listener | null }> {
  const ingressListener = await ingress.listen(config.ingress.host, config.ingress.port);
  try {
    return { ingress: ingressListener, admin: await management.listen() };
  } catch (error) {
    ingress.halt();
    await ingressListener.close();
    throw error;
  }
}

async function started(
  parts: Parts,
  listeners: { ingress: Listener; admin: Listener | null },
): Promise<Core> {
  const { state, jobs, management } = parts;
  const adminUrl = listeners.admin ? displayUrl('127.0.0.1', listeners.admin.port) : null;
  // Before the dispatcher starts: a run it takes at once may be given access already.
  await jobs.startRuns(adminUrl && `${adminUrl}/mcp`);
  await management.definitions.watchManaged();
  state.settings.listenerBaseUrl = displayUrl(listeners.ingress.host, listeners.ingress.port);
  await jobs.startOutward(listeners.ingress.port);
  let stopping: Promise<void> | null = null;
  return {
    version,
    store: parts.store,
    service: management.service,
    events: state.events,
    reachability: state.reachability,
    tunnel: jobs.tunnel,
    links: jobs.links,
    wake: jobs.wake,
    secrets: state.secrets,
    adminToken: parts.adminToken,
    auth: management.auth,
    alarms: jobs.alarms,
    ingressListenUrl: state.settings.listenerBaseUrl,
    adminUrl,
    loginLink: () => {
      if (!adminUrl)
        throw new Error('This relay runs without an admin listener, so it has no login link.');
      return `${adminUrl}/login?token=${management.auth.mintLoginCode()}`;
    },
    stop: () => (stopping ??= stopAll(parts, listeners)),
  };
}

/** In this order: nothing new comes in, what came in is committed, then the store closes. */
async function stopAll(
  { store, jobs, ingress, management, bridge }: Parts,
  listeners: { ingress: Listener; admin: Listener | null },
): Promise<void> {
  ingress.halt();
  jobs.halt();
  management.endStreams();
  await jobs.tunnel.stop();
  await Promise.all([listeners.ingress.close(), listeners.admin?.close()]);
  await ingress.drain();
  await jobs.dispatcher.stop();
  await management.definitions.close();
  await jobs.alarms.idle();
  await jobs.links.stop();
  bridge.stop();
  await store.close();
}
