import type { AlarmMonitor } from '../alarms/monitor.js';
import type { AutomationIndex } from '../automations/automation-index.js';
import type { EventBus } from '../events.js';
import type { WebhookDirectory } from '../ingress/webhook-directory.js';
import type { Reachability } from '../reachability.js';
import type { TeamSecrets } from '../secrets/team-secrets.js';
import type { RelaySettings } from '../service/relay-settings.js';
import type { SharedResource } from '../store/store-peers.js';

/** What this relay keeps in memory and reads again from the store after a change. */
type Cache =
  'webhook directory' | 'automation index' | 'alarm check' | 'alarm state' | 'secrets' | 'settings';

/**
 * The one rule for what a change reloads, in this order, whoever made it: a management write on
 * this relay, a definition apply, or another relay on the same store. A deleted or disabled
 * webhook fires nothing and its alarms follow; tokens are read from the store at every use.
 */
export const RELOADS: Readonly<Record<SharedResource, readonly Cache[]>> = {
  webhooks: ['webhook directory', 'automation index', 'alarm check'],
  automations: ['automation index'],
  secrets: ['secrets'],
  settings: ['settings'],
  tokens: [],
  alarms: ['alarm state'],
};

/**
 * Caches a write on this relay goes through (TeamSecrets, RelaySettings, the alarm monitor):
 * they already hold what was written, so only another relay's change re-reads them.
 */
const WRITTEN_THROUGH: ReadonlySet<Cache> = new Set(['secrets', 'settings', 'alarm state']);

/** Where a change was made. */
export type ChangeOrigin = 'here' | 'replica';

export interface ChangeScope {
  /** The one webhook written, when only one was (its directory entry alone is re-read). */
  webhookUid?: string;
}

/**
 * Reloads what `resource` changed, then tells this relay's pages (and, through the peer bridge,
 * the other relays) with a `changed` event. Answers once the caches hold the change, so a
 * delivery accepted next is planned with it.
 */
export type OnChanged = (
  resource: SharedResource | readonly SharedResource[],
  scope?: ChangeScope,
) => Promise<void>;

export interface ChangeTableDeps {
  directory: WebhookDirectory;
  automationIndex: AutomationIndex;
  secrets: TeamSecrets;
  settings: RelaySettings;
  reachability: Reachability;
  alarms: AlarmMonitor;
  events: EventBus;
}

export interface ChangeTable {
  onChanged: OnChanged;
  /** Re-reads what another relay's change to `resource` touched (the peer bridge relays the event). */
  reload(resource: SharedResource, origin: ChangeOrigin, scope?: ChangeScope): Promise<void>;
}

export function changeTable(deps: ChangeTableDeps): ChangeTable {
  const reloadOne: Record<Cache, (origin: ChangeOrigin, scope: ChangeScope) => Promise<void>> = {
    'webhook directory': (_origin, { webhookUid }) =>
      webhookUid === undefined ? deps.directory.reloadAll() : deps.directory.refresh(webhookUid),
    'automation index': () => deps.automationIndex.reload(),
    // In the background: a webhook write answers without waiting for its alarms.
    'alarm check': () => {
      void deps.alarms.evaluate();
      return Promise.resolve();
    },
    'alarm state': () => deps.alarms.evaluate(),
    secrets: async () => void (await deps.secrets.load()),
    settings: async () => {
      await deps.settings.reload();
      deps.reachability.noticeBase();
    },
  };

  async function reloadAll(
    resources: readonly SharedResource[],
    origin: ChangeOrigin,
    scope: ChangeScope,
  ): Promise<void> {
    const caches = new Set(resources.flatMap((resource) => RELOADS[resource]));
    for (const cache of caches) {
      if (origin === 'here' && WRITTEN_THROUGH.has(cache)) continue;
      await reloadOne[cache](origin, scope);
    }
  }

  return {
    onChanged: async (resource, scope = {}) => {
      const resources = typeof resource === 'string' ? [resource] : resource;
      await reloadAll(resources, 'here', scope);
      for (const changed of resources) deps.events.emit({ type: 'changed', resource: changed });
    },
    reload: (resource, origin, scope = {}) => reloadAll([resource], origin, scope),
  };
}
