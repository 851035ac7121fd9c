import type { LastWake, TunnelStatus } from '../shared/contract/relay.js';
import type { RelaySettings } from './service/relay-settings.js';

/** Why senders may reach the relay again: what provider links recover after. */
export type ReachableCause = 'start' | 'tunnel-up' | 'woke';

export type ReachabilityEvent =
  /** The base of every ingress URL shown changed (a tunnel URL, `--public-url`, Settings). */
  | { type: 'ingress-base-changed'; baseUrl: string; previous: string }
  | { type: 'tunnel'; tunnel: TunnelStatus }
  | { type: 'woke'; wake: LastWake }
  | { type: 'reachable'; baseUrl: string; cause: ReachableCause };

type Listener = (event: ReachabilityEvent) => void;

export const TUNNEL_OFF: TunnelStatus = {
  kind: null,
  state: 'off',
  url: null,
  since: null,
  lastError: null,
};

/**
 * The one seam between what makes this relay reachable (its tunnel, the machine waking) and what
 * reacts to it (provider links, alarms, the status line, the tray). Tunnels and the wake detector
 * report here; nobody else decides when the public base URL changed or the relay is reachable.
 */
export class Reachability {
  private tunnelStatus: TunnelStatus = TUNNEL_OFF;
  private wake: LastWake | null = null;
  private lastBase: string;
  private readonly listeners = new Set<Listener>();

  constructor(private readonly settings: RelaySettings) {
    this.lastBase = settings.ingressBaseUrl;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get tunnel(): TunnelStatus {
    return this.tunnelStatus;
  }

  get lastWake(): LastWake | null {
    return this.wake;
  }

  /**
   * The tunnel manager reports every state change. While a tunnel is down or restarting its last
   * URL stays the base (a provider hook must never be pointed at a loopback address meanwhile);
   * only turning the tunnel off returns the base to `--public-url` or the listener's own address.
   */
  setTunnel(status: TunnelStatus): void {
    const wasUp = this.tunnelStatus.state === 'up';
    this.tunnelStatus = status;
    if (status.state === 'up' && status.url) this.settings.tunnelUrl = status.url;
    if (status.state === 'off') this.settings.tunnelUrl = null;
    this.noticeBase();
    this.emit({ type: 'tunnel', tunnel: status });
    if (status.state === 'up' && !wasUp) this.reachable('tunnel-up');
  }

  /** Call after anything that may move the ingress base (settings written or reloaded). */
  noticeBase(): void {
    const baseUrl = this.settings.ingressBaseUrl;
    if (baseUrl === this.lastBase) return;
    const previous = this.lastBase;
    this.lastBase = baseUrl;
    this.emit({ type: 'ingress-base-changed', baseUrl, previous });
  }

  /** The relay listens: reachable now, unless a tunnel is still coming up (it says when). */
  started(): void {
    this.lastBase = this.settings.ingressBaseUrl;
    if (this.tunnelStatus.state === 'off' || this.tunnelStatus.state === 'up') {
      this.reachable('start');
    }
  }

  /** The machine slept. A tunnel that is not up restarts first and reports `tunnel-up` itself. */
  woke(at: number, sleptSeconds: number): void {
    this.wake = { at: new Date(at).toISOString(), sleptSeconds };
    this.emit({ type: 'woke', wake: this.wake });
    if (this.tunnelStatus.state === 'off' || this.tunnelStatus.state === 'up') {
      this.reachable('woke');
    }
  }

  private reachable(cause: ReachableCause): void {
    this.emit({ type: 'reachable', baseUrl: this.settings.ingressBaseUrl, cause });
  }

  private emit(event: ReachabilityEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A broken listener must not stop the others from hearing it.
      }
    }
  }
}
