import type { TunnelStatus } from '../../shared/contract/relay.js';
import type { AlarmNotification } from '../../shared/contract/alarms.js';
import type { AlarmNotifier } from '../alarms/notifier.js';
import type { EventBus } from '../events.js';
import { describeError, type Logger } from '../log.js';
import type { Reachability } from '../reachability.js';

/** A tunnel down for longer than this raises an alarm (PRODUCT §18). */
export const TUNNEL_DOWN_ALARM_MS = 60_000;

export interface TunnelAlarmDeps {
  reachability: Reachability;
  /** Every factory's alarm notification (the tunnel serves them all). */
  notifications: () => Promise<AlarmNotification[]>;
  notifier: AlarmNotifier;
  events: EventBus;
  log: Logger;
  now: () => number;
  afterMs?: number;
}

/**
 * Raises one alarm when the tunnel has been down (or failing to come back) for more than a
 * minute, and one recovery when it is up again: logged, announced to the UI and sent through
 * each factory's alarm notification, like a webhook's alarms.
 */
export class TunnelAlarm {
  private timer: NodeJS.Timeout | null = null;
  private downSince: number | null = null;
  private raisedAt: number | null = null;
  private readonly unsubscribe: () => void;

  constructor(private readonly deps: TunnelAlarmDeps) {
    this.unsubscribe = deps.reachability.subscribe((event) => {
      if (event.type === 'tunnel') this.follow(event.tunnel);
    });
  }

  /** True while the alarm is raised. */
  get raised(): boolean {
    return this.raisedAt !== null;
  }

  stop(): void {
    this.unsubscribe();
    if (this.timer) clearTimeout(this.timer);
  }

  private follow(tunnel: TunnelStatus): void {
    if (tunnel.state === 'down' && this.downSince === null) {
      this.downSince = this.deps.now();
      this.timer = setTimeout(() => this.raise(), this.deps.afterMs ?? TUNNEL_DOWN_ALARM_MS);
      this.timer.unref();
    } else if (tunnel.state === 'up' || tunnel.state === 'off') {
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      const since = this.downSince;
      this.downSince = null;
      if (this.raisedAt !== null && since !== null) {
        this.raisedAt = null;
        const message =
          tunnel.state === 'up'
            ? `The tunnel is up again: ${tunnel.url ?? ''}`
            : 'The tunnel was turned off.';
        this.deps.log.info(`[alarms] ${message}`);
        void this.announce('recovery', since, message);
      }
    }
  }

  private raise(): void {
    const since = this.downSince;
    if (since === null) return;
    this.raisedAt = this.deps.now();
    const why = this.deps.reachability.tunnel.lastError ?? 'it stopped';
    const message = `The tunnel has been down since ${new Date(since).toISOString()} (${why}): senders on the internet cannot reach this relay.`;
    this.deps.log.error(`[alarms] ${message}`);
    void this.announce('alarm', since, message);
  }

  private async announce(
    event: 'alarm' | 'recovery',
    since: number,
    message: string,
  ): Promise<void> {
    this.deps.events.emit({ type: 'changed', resource: 'alarms' });
    try {
      for (const config of await this.deps.notifications()) {
        this.deps.notifier.send(config, {
          event,
          kind: 'tunnel',
          webhook: null,
          since: new Date(since).toISOString(),
          at: new Date(this.deps.now()).toISOString(),
          message,
        });
      }
    } catch (error) {
      this.deps.log.error(`[alarms] the tunnel ${event} was not sent: ${describeError(error)}`);
    }
  }
}
