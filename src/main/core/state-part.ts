import { AutomationIndex } from '../automations/automation-index.js';
import type { CoreConfig } from '../config.js';
import { EventBus } from '../events.js';
import { WebhookDirectory } from '../ingress/webhook-directory.js';
import type { Logger } from '../log.js';
import { Reachability } from '../reachability.js';
import { warnLagging } from '../replicas/peer-bridge.js';
import { chooseSecretStore } from '../secrets/choose-store.js';
import { TeamSecrets } from '../secrets/team-secrets.js';
import { RelaySettings } from '../service/relay-settings.js';
import { DEFAULT_FACTORY_ID } from '../store/factories.js';
import type { Store } from '../store/store.js';

/** What the relay holds in memory from its store, loaded at start (on-changed.ts reloads it). */
export interface RelayState {
  settings: RelaySettings;
  /** Tunnel and wake state; where provider links hear that the relay moved or is back. */
  reachability: Reachability;
  secrets: TeamSecrets;
  events: EventBus;
  /** Live webhooks by UID, for the ingress. */
  directory: WebhookDirectory;
  /** Enabled automations by the webhooks they select, for the accept path. */
  automationIndex: AutomationIndex;
}

export type StateConfig = Pick<
  CoreConfig,
  | 'publicUrl'
  | 'dataDir'
  | 'masterKeyFromEnv'
  | 'secretBackend'
  | 'secretStore'
  | 'keychainProbeRunner'
>;

export async function loadRelayState(
  store: Store,
  config: StateConfig,
  log: Logger,
  now: () => number,
): Promise<RelayState> {
  await store.factories.ensure(DEFAULT_FACTORY_ID, 'Default factory', now());
  const settings = await RelaySettings.load(store.settings);
  if (config.publicUrl) await settings.setPublicUrl(config.publicUrl.replace(/\/+$/, ''));
  const secrets = await loadSecrets(store, settings, config, log, now);
  const directory = await WebhookDirectory.load(store.webhooks);
  const automationIndex = await AutomationIndex.load(store.automations, async () =>
    (await store.webhooks.live()).map((w) => w.uid),
  );
  return {
    settings,
    reachability: new Reachability(settings),
    secrets,
    events: new EventBus(),
    directory,
    automationIndex,
  };
}

async function loadSecrets(
  store: Store,
  settings: RelaySettings,
  config: StateConfig,
  log: Logger,
  now: () => number,
): Promise<TeamSecrets> {
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
  return secrets;
}
