import type { AlarmNotification } from '../../shared/contract/alarms.js';
import {
  tunnelKindLabel,
  type TunnelChoice,
  type TunnelTest,
} from '../../shared/contract/tunnel.js';
import { ApiError } from '../../shared/errors.js';
import type { AlarmNotifier } from '../alarms/notifier.js';
import type { EventBus } from '../events.js';
import type { Logger } from '../log.js';
import type { Reachability } from '../reachability.js';
import type { RelaySettings } from '../service/relay-settings.js';
import { TunnelAlarm } from './tunnel-alarm.js';
import { TunnelManager } from './tunnel-manager.js';

/** `--tunnel`, HOOKPORT_TUNNEL and the knobs tests turn. */
export interface TunnelConfig {
  /** `--tunnel` / HOOKPORT_TUNNEL for this relay; `null` (`--tunnel none`) turns it off. */
  choice?: TunnelChoice | null;
  pollMs?: number;
  alarmAfterMs?: number;
  backoffFirstMs?: number;
  env?: NodeJS.ProcessEnv;
}

export interface RelayTunnelDeps {
  reachability: Reachability;
  settings: RelaySettings;
  /** On PostgreSQL the Settings choice is shared by every replica, so none is kept there. */
  sharedStore: boolean;
  secret: (name: string) => string | undefined;
  notifications: () => Promise<AlarmNotification[]>;
  notifier: AlarmNotifier;
  events: EventBus;
  dataDir: string;
  log: Logger;
  now: () => number;
  config?: TunnelConfig;
}

export type RelayTunnel = ReturnType<typeof createRelayTunnel>;

/**
 * The relay's tunnel as the core and the service see it: which one runs (the command line's,
 * else the Settings choice), its manager and its alarm.
 */
export function createRelayTunnel(deps: RelayTunnelDeps) {
  const config = deps.config ?? {};
  const manager = new TunnelManager({
    reachability: deps.reachability,
    dataDir: deps.dataDir,
    secret: deps.secret,
    publicUrl: () => deps.settings.publicUrl,
    log: deps.log,
    now: deps.now,
    env: config.env,
    pollMs: config.pollMs,
    backoffFirstMs: config.backoffFirstMs,
  });
  let alarm: TunnelAlarm | null = null;
  // The status line and the Settings page read the tunnel with the settings.
  const quiet = deps.reachability.subscribe((event) => {
    if (event.type === 'tunnel') deps.events.emit({ type: 'changed', resource: 'settings' });
  });

  /** What this relay runs: `--tunnel` wins; on SQLite it is also kept as the Settings choice. */
  const chosen = async (): Promise<TunnelChoice | null> => {
    if (config.choice === undefined) return deps.sharedStore ? null : deps.settings.tunnel;
    if (!deps.sharedStore) await deps.settings.setTunnel(config.choice);
    return config.choice;
  };

  return {
    manager,
    get label(): string | null {
      const kind = deps.reachability.tunnel.kind;
      return kind ? tunnelKindLabel(kind) : null;
    },
    get alarmRaised(): boolean {
      return alarm?.raised ?? false;
    },
    /** After the ingress listens. Resolves at once: the tunnel comes up in the background. */
    async start(port: number): Promise<void> {
      alarm = new TunnelAlarm({
        reachability: deps.reachability,
        notifications: deps.notifications,
        notifier: deps.notifier,
        events: deps.events,
        log: deps.log,
        now: deps.now,
        afterMs: config.alarmAfterMs,
      });
      await manager.start(port, await chosen());
    },
    /** Settings chose another tunnel (or none). */
    async choose(choice: TunnelChoice | null): Promise<void> {
      if (deps.sharedStore) {
        throw new ApiError(
          'conflict',
          'On a shared PostgreSQL store each relay runs its own tunnel or none: start the relay with --tunnel (or HOOKPORT_TUNNEL) instead.',
          'tunnel',
        );
      }
      await deps.settings.setTunnel(choice);
      await manager.configure(choice);
    },
    /** Settings → Public URL → Test. */
    test: (choice: TunnelChoice): Promise<TunnelTest> => manager.test(choice),
    async stop(): Promise<void> {
      quiet();
      alarm?.stop();
      await manager.stop();
    },
  };
}
