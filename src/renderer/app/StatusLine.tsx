import type { ReactNode } from 'react';
import { useRelay } from './relay-context.js';

const BACKEND_TEXT = { keychain: 'OS keychain', file: 'encrypted file' } as const;

/** Relay running, ingress base URL, secret backend, deliveries in the last hour. */
export function StatusLine(): ReactNode {
  const { status, factory } = useRelay();
  return (
    <footer className="status-line" aria-label="Relay status">
      <span>
        <span className="dot dot-ok" aria-hidden="true" /> Relay running (v{status.version})
      </span>
      <span>
        Ingress <code>{status.ingressBaseUrl}</code>
      </span>
      <span>Secrets: {BACKEND_TEXT[status.secretBackend]}</span>
      <span>
        {status.deliveriesLastHour} {status.deliveriesLastHour === 1 ? 'delivery' : 'deliveries'} in
        the last hour
      </span>
      {factory.managed && <span>Managed by {factory.definitionsDir}</span>}
      {status.role === 'view' && <span className="role-view">View only</span>}
    </footer>
  );
}
