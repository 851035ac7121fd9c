import type { TunnelStatus } from '../../shared/contract/relay.js';
import { tunnelKindLabel } from '../../shared/contract/tunnel.js';

const clock = (iso: string | null): string =>
  iso
    ? new Date(iso).toLocaleTimeString(undefined, {
        hour: '2-digit',
        minute: '2-digit',
        hour12: false,
      })
    : '';

/** The tray's tunnel line: "Tunnel up: https://…", "Tunnel down since 14:02: …", "No tunnel". */
export function tunnelMenuLine(tunnel: TunnelStatus): string {
  switch (tunnel.state) {
    case 'up':
      return `Tunnel up: ${tunnel.url ?? ''}`;
    case 'starting':
      return `Tunnel starting (${tunnelKindLabel(tunnel.kind ?? '')})…`;
    case 'down':
      return `Tunnel down since ${clock(tunnel.since)}: ${(tunnel.lastError ?? 'stopped').slice(0, 90)}`;
    default:
      return 'No tunnel: senders on the internet cannot reach this relay';
  }
}
