import { version } from '../../../package.json';
import { createAdminApp, type AdminApp } from '../admin/app.js';
import type { AdminToken } from '../admin/admin-token.js';
import { AdminAuth } from '../admin/auth.js';
import type { CoreConfig } from '../config.js';
import { DefinitionSync } from '../definitions/sync.js';
import { listen, type Listener } from '../http/listener.js';
import { WEBHOOKS_PER_FACTORY } from '../ingress/limits.js';
import type { RefusalTally } from '../ingress/refusal-tally.js';
import type { Logger } from '../log.js';
import type { PeerBridge } from '../replicas/peer-bridge.js';
import { createManagementService, type ServiceHandlers } from '../service/index.js';
import { SerialQueue } from '../service/serial-queue.js';
import type { DeliveryWriter } from '../store/delivery-writer.js';
import { DEFAULT_FACTORY_ID } from '../store/factories.js';
import type { Store } from '../store/store.js';
import type { Jobs } from './jobs-part.js';
import type { OnChanged } from './on-changed.js';
import type { RelayState } from './state-part.js';

/** The management service (one contract: HTTP here, IPC in the desktop app) and what it writes through. */
export interface ManagementPart {
  service: ServiceHandlers;
  auth: AdminAuth;
  definitions: DefinitionSync;
  /** Starts the admin listener (loopback only), unless the relay runs without one. */
  listen(): Promise<Listener | null>;
  /** Ends the admin UI's event streams (before the listener closes). */
  endStreams(): void;
}

export interface ManagementPartDeps {
  store: Store;
  state: RelayState;
  jobs: Jobs;
  writer: DeliveryWriter;
  refusals: RefusalTally;
  onChanged: OnChanged;
  bridge: PeerBridge;
  adminToken: AdminToken;
  config: Pick<
    CoreConfig,
    'admin' | 'definitionsDir' | 'limits' | 'cliCommand' | 'forwardTimeoutMs' | 'uiDir'
  >;
  log: Logger;
  now: () => number;
}

export async function createManagementPart(deps: ManagementPartDeps): Promise<ManagementPart> {
  const { store, state, config, log, now } = deps;
  const auth = await AdminAuth.start(deps.adminToken.value, store.tokens, now);
  const writes = new SerialQueue();
  const webhookLimit = config.limits?.webhooksPerFactory ?? WEBHOOKS_PER_FACTORY;
  const definitions = new DefinitionSync({
    store,
    secrets: state.secrets,
    events: state.events,
    onChanged: deps.onChanged,
    writes,
    webhookLimit,
    log,
    now,
    onLinked: (uids) => deps.jobs.links.pointAgain(uids),
  });
  if (config.definitionsDir) {
    // A broken definition at start is an error, not a relay serving half a factory.
    await definitions.sync(DEFAULT_FACTORY_ID, { dir: config.definitionsDir });
  }
  const service = managementService(deps, writes, definitions, webhookLimit);
  let adminPort = config.admin?.port ?? 0;
  // The desktop app talks to the service over IPC and opens no admin listener at all.
  const adminApp: AdminApp | null = config.admin
    ? createAdminApp({
        service,
        auth,
        events: state.events,
        uiDir: config.uiDir ?? null,
        metrics: deps.jobs.metrics,
        port: () => adminPort,
        storeKind: store.kind,
        log,
        runTokens: deps.jobs.runTokens,
      })
    : null;
  return {
    service,
    auth,
    definitions,
    async listen() {
      if (!adminApp) return null;
      const admin = await listen(adminApp.app.callback(), '127.0.0.1', adminPort);
      adminPort = admin.port;
      return admin;
    },
    endStreams: () => adminApp?.streams.closeAll(),
  };
}

function managementService(
  deps: ManagementPartDeps,
  writes: SerialQueue,
  definitions: DefinitionSync,
  webhookLimit: number,
): ServiceHandlers {
  const { store, state, jobs } = deps;
  return createManagementService({
    factories: store.factories,
    webhooks: store.webhooks,
    deliveries: store.deliveries,
    tokens: store.tokens,
    secrets: state.secrets,
    settings: state.settings,
    reachability: state.reachability,
    tunnel: jobs.tunnel,
    links: jobs.links,
    events: state.events,
    onChanged: deps.onChanged,
    writes,
    definitions,
    limits: { webhooksPerFactory: webhookLimit },
    version,
    cliCommand: deps.config.cliCommand ?? 'hookport',
    now: deps.now,
    automations: store.automations,
    automationIndex: state.automationIndex,
    runs: store.runs,
    executors: store.executors,
    writer: deps.writer,
    dispatcher: jobs.dispatcher,
    refusals: deps.refusals,
    alarms: { monitor: jobs.alarms, repo: store.alarms },
    log: deps.log,
    attempts: store.attempts,
    scans: store.scans,
    forwardTimeoutMs: deps.config.forwardTimeoutMs,
    peersSettled: () => deps.bridge.settled(),
  });
}
