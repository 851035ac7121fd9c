import { useRef, type ReactNode } from 'react';
import type { RefusalCounts } from '../../shared/contract/refusals.js';
import { formatCount } from '../components/format.js';
import { useRelay } from './relay-context.js';
import { routeHref } from './router.js';
import { TunnelStatus } from './TunnelStatus.js';
import { onChanged, useCall } from './use-call.js';
import { useStatusLineHeight } from './use-status-line-height.js';
import { wakeText } from './wake-text.js';

const BACKEND_TEXT = {
  keychain: 'OS keychain',
  file: 'encrypted file',
  postgres: 'encrypted in PostgreSQL',
} as const;
const ALARM_TEXT = {
  quiet: 'quiet',
  auth: 'Rejected (auth) streak',
  link: 'provider link check failing',
} as const;

/** "12 × 404, 3 × 429", or null when nothing was refused. */
function refusedText(counts: RefusalCounts): string | null {
  const parts = ([404, 405, 429] as const)
    .filter((status) => counts[status] > 0)
    .map((status) => `${formatCount(counts[status])} × ${status}`);
  return parts.length === 0 ? null : parts.join(', ');
}

/**
 * Relay running, ingress base URL, secret backend, deliveries and refused requests in the last
 * hour (fresh within seconds), and any alarm raised now.
 */
export function StatusLine(): ReactNode {
  const { status, factory } = useRelay();
  const alarms = useCall('alarms.list', {}, onChanged('alarms', 'webhooks'));
  const refused = refusedText(status.refusalsLastHour);
  const footer = useRef<HTMLElement>(null);
  useStatusLineHeight(footer);
  return (
    <footer ref={footer} className="status-line" aria-label="Relay status">
      <span>
        <span className="dot dot-ok" aria-hidden="true" /> Relay running (v{status.version})
      </span>
      <span>
        Ingress <code>{status.ingressBaseUrl}</code>
      </span>
      <TunnelStatus status={status} />
      <span>Secrets: {BACKEND_TEXT[status.secretBackend]}</span>
      <span>
        {formatCount(status.deliveriesLastHour)}{' '}
        {status.deliveriesLastHour === 1 ? 'delivery' : 'deliveries'} in the last hour
      </span>
      <span>
        <a href={routeHref('refused')}>
          {refused
            ? `Refused in the last hour: ${refused}`
            : 'No refused requests in the last hour'}
        </a>
      </span>
      {alarms.data?.items.map((alarm) => (
        <span key={`${alarm.webhookUid}:${alarm.kind}`} className="status-alarm">
          <span aria-hidden="true">⚠ </span>
          <a href={routeHref('webhooks', alarm.webhookUid)} title={alarm.message}>
            {alarm.webhookName}: {ALARM_TEXT[alarm.kind]}
          </a>
        </span>
      ))}
      {status.lastWake && <span className="status-wake">{wakeText(status.lastWake)}</span>}
      {factory.managed && <span>Managed by {factory.definitionsDir}</span>}
      {status.role === 'view' && <span className="role-view">View only</span>}
    </footer>
  );
}
