import type { ReactNode } from 'react';
import type { RelayStatus } from '../../shared/contract/relay.js';
import { tunnelKindLabel } from '../../shared/contract/tunnel.js';
import { CopyButton } from '../components/CopyButton.js';
import { formatTime } from '../components/format.js';
import { routeHref } from './router.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The status line's tunnel part (PRODUCT §18): up with its URL to copy, starting, down since
 * when and why, or, with no tunnel and a loopback base, that senders on the internet cannot
 * reach the relay.
 */
export function TunnelStatus({ status }: { status: RelayStatus }): ReactNode {
  const { tunnel } = status;
  if (tunnel.state === 'up' && tunnel.url) {
    return (
      <span className="status-tunnel" data-state="up">
        <span className="dot dot-ok" aria-hidden="true" /> Tunnel up · <code>{tunnel.url}</code> ·{' '}
        <CopyButton value={tunnel.url} label="Copy the tunnel URL" text="copy" />
      </span>
    );
  }
  if (tunnel.state === 'starting') {
    return (
      <span className="status-tunnel" data-state="starting">
        Tunnel starting… ({tunnelKindLabel(tunnel.kind ?? '')})
      </span>
    );
  }
  if (tunnel.state === 'down') {
    return (
      <span className="status-tunnel status-alarm" data-state="down">
        <span aria-hidden="true">⚠ </span>
        Tunnel down{tunnel.since ? ` since ${formatTime(tunnel.since)}` : ''} ·{' '}
        <span title={tunnel.lastError ?? undefined}>{shorten(tunnel.lastError ?? 'stopped')}</span>{' '}
        <a href={routeHref('settings')}>details</a>
      </span>
    );
  }
  const host = URL.canParse(status.ingressBaseUrl) ? new URL(status.ingressBaseUrl).hostname : '';
  if (!LOOPBACK.has(host)) return null;
  return (
    <span className="status-tunnel" data-state="off">
      No tunnel · senders on the internet cannot reach {host}{' '}
      <a href={routeHref('settings')}>set one up</a>
    </span>
  );
}

function shorten(text: string): string {
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}
