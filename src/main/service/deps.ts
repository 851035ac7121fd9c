import type { AlarmMonitor } from '../alarms/monitor.js';
import type { DefinitionSync } from '../definitions/sync.js';
import type { EventBus } from '../events.js';
import type { RefusalTally } from '../ingress/refusal-tally.js';
import type { WebhookDirectory } from '../ingress/webhook-directory.js';
import type { TeamSecrets } from '../secrets/team-secrets.js';
import type { AlarmsRepository } from '../store/alarms.js';
import type { DeliveriesRepository } from '../store/deliveries.js';
import type { FactoriesRepository } from '../store/factories.js';
import type { TokensRepository } from '../store/tokens.js';
import type { WebhooksRepository } from '../store/webhooks.js';
import type { Reachability } from '../reachability.js';
import type { RelayTunnel } from '../tunnels/relay-tunnel.js';
import type { LinkKeeper } from '../links/link-keeper.js';
import type { RelaySettings } from './relay-settings.js';
import type { SerialQueue } from './serial-queue.js';

export interface ServiceDeps {
  factories: FactoriesRepository;
  webhooks: WebhooksRepository;
  deliveries: DeliveriesRepository;
  tokens: TokensRepository;
  secrets: TeamSecrets;
  directory: WebhookDirectory;
  settings: RelaySettings;
  /** Tunnel and wake state, and the one place that says when the ingress base moved. */
  reachability: Reachability;
  /** The tunnel this relay runs: Settings chooses and tests it. */
  tunnel: Pick<RelayTunnel, 'choose' | 'test'>;
  /** Provider links (§19): keeps hooks pointed, checks and recovers them. */
  links: LinkKeeper;
  events: EventBus;
  /** Management writes run one at a time, so check-then-write (names, limits) cannot race. */
  writes: SerialQueue;
  limits: { webhooksPerFactory: number };
  /** Managed factories: the API writes definition files and applies them through this. */
  definitions: DefinitionSync;
  /** Refused requests the ingress keeps in memory (read only here). */
  refusals: Pick<RefusalTally, 'newest' | 'countsSinceStart' | 'countsLastHour'>;
  alarms: { monitor: AlarmMonitor; repo: AlarmsRepository };
  version: string;
  /** How to run `hookport` on this machine (the UI's sample commands). */
  cliCommand: string;
  now: () => number;
}
