import { parseTunnelKind } from '../../shared/contract/tunnel.js';
import { cloudflaredTunnel } from './cloudflared-tunnel.js';
import { commandTunnel } from './command-tunnel.js';
import { ngrokTunnel } from './ngrok-tunnel.js';
import { sshTunnel } from './ssh-tunnel.js';
import { tailscaleTunnel } from './tailscale-tunnel.js';
import type { TunnelKind } from './tunnel.js';
import { TunnelError } from './tunnel.js';

/** The module that runs a kind named as `--tunnel` names it. Throws a TunnelError in words. */
export function tunnelKind(kind: string): TunnelKind {
  const spec = parseTunnelKind(kind);
  switch (spec?.type) {
    case 'cloudflared':
      return cloudflaredTunnel;
    case 'ngrok':
      return ngrokTunnel;
    case 'tailscale':
      return tailscaleTunnel;
    case 'ssh':
      return sshTunnel(spec.destination);
    case 'command':
      return commandTunnel(spec.command);
    default:
      throw new TunnelError(
        `"${kind}" is no tunnel kind: use cloudflared, ngrok, tailscale, ssh:<destination> or command:<program and arguments>`,
        true,
      );
  }
}
