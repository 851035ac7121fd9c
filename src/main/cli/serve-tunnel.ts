import type { Core } from '../core.js';
import {
  TUNNEL_KIND_WORDS,
  parseTunnelKind,
  tunnelKindLabel,
  type TunnelChoice,
} from '../../shared/contract/tunnel.js';
import type { TunnelStatus } from '../../shared/contract/relay.js';
import { UsageError } from './usage.js';

/** How long the banner waits for a tunnel to come up before it says "starting". */
const BANNER_WAIT_MS = 20_000;

/**
 * `--tunnel KIND` (or HOOKPORT_TUNNEL) and `--tunnel-domain D`: undefined when neither says,
 * null for `none`/`off` (no tunnel, also not the Settings one).
 */
export function tunnelChoiceFrom(
  kind: string | undefined,
  domain: string | undefined,
): TunnelChoice | null | undefined {
  const given = kind ?? process.env.HOOKPORT_TUNNEL;
  if (given === undefined || given.trim() === '') {
    if (domain !== undefined) throw new UsageError('--tunnel-domain needs --tunnel ngrok');
    return undefined;
  }
  if (given === 'none' || given === 'off') return null;
  if (!parseTunnelKind(given))
    throw new UsageError(`--tunnel ${TUNNEL_KIND_WORDS}, not "${given}"`);
  if (domain !== undefined && !/^[a-z0-9.-]+$/i.test(domain))
    throw new UsageError(`--tunnel-domain must be a host name, not "${domain}"`);
  return { kind: given.trim(), domain: domain ?? null };
}

/** Resolves once the tunnel is no longer starting (or after the wait). */
export function tunnelSettled(core: Core): Promise<void> {
  if (core.reachability.tunnel.state !== 'starting') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, BANNER_WAIT_MS);
    const unsubscribe = core.reachability.subscribe((event) => {
      if (event.type === 'tunnel' && event.tunnel.state !== 'starting') done();
    });
    function done(): void {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    }
  });
}

/** The banner's `Public URL` line, or none when no tunnel runs. */
export function publicUrlLine(tunnel: TunnelStatus): string | null {
  if (!tunnel.kind) return null;
  const label = tunnelKindLabel(tunnel.kind);
  switch (tunnel.state) {
    case 'up':
      return `  Public URL   ${tunnel.url}  (${label})`;
    case 'starting':
      return `  Public URL   starting…  (${label})`;
    default:
      return `  Public URL   none: ${tunnel.lastError ?? 'the tunnel is down'} (the relay runs on without a tunnel)`;
  }
}

/** After the banner: one line each time the tunnel comes up with a URL, or goes down. */
export function printTunnelChanges(core: Core): void {
  let shownUrl = core.reachability.tunnel.state === 'up' ? core.reachability.tunnel.url : null;
  core.reachability.subscribe((event) => {
    if (event.type !== 'tunnel' || !event.tunnel.kind) return;
    const { state, url, lastError } = event.tunnel;
    if (state === 'up' && url !== shownUrl) {
      shownUrl = url;
      console.log(publicUrlLine(event.tunnel));
    } else if (state === 'down') {
      shownUrl = null;
      console.log(`  Tunnel down  ${lastError ?? ''}`);
    }
  });
}
