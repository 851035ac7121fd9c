import { createContext, useContext, type ReactNode } from 'react';
import type { Factory } from '../../shared/contract/factories.js';
import type { RelayStatus } from '../../shared/contract/relay.js';
import { useRelayEvents } from './client-context.js';
import { AGGREGATE_RELOAD_MS, onChanged, useCall } from './use-call.js';
import { useInterval } from './use-interval.js';

/** The status line's counts age (the last hour moves on; refusals send no events): read again. */
const STATUS_REFRESH_MS = 5_000;

export interface RelayInfo {
  status: RelayStatus;
  /** The default factory: managed (definition files) or not, and its webhook limit. */
  factory: Factory;
  canManage: boolean;
  reload: () => void;
}

const RelayContext = createContext<RelayInfo | null>(null);

const VIEW_ONLY = 'Your token has the "view" role: ask for a "manage" token to change this.';

/** What every page needs to know about the relay and the caller; reloaded as things change. */
export function RelayProvider({
  children,
  fallback,
}: {
  children: ReactNode;
  fallback: (error: ReturnType<typeof useCall>['error']) => ReactNode;
}): ReactNode {
  const status = useCall('relay.status', {}, (e) => e.type === 'delivery', AGGREGATE_RELOAD_MS);
  useInterval(status.reload, STATUS_REFRESH_MS);
  // A setting or the tunnel's state (rare events) shows at once, not after a delivery burst's
  // gathering time: a tunnel that came up within it was never shown starting.
  useRelayEvents((event) => {
    if (onChanged('settings')(event)) status.reload();
  });
  const factories = useCall('factories.list', {}, onChanged('webhooks', 'settings'));
  const factory = factories.data?.items.find((f) => f.id === 'default');
  if (!status.data || !factory) return fallback(status.error ?? factories.error);
  const info: RelayInfo = {
    status: status.data,
    factory,
    canManage: status.data.role === 'manage',
    reload: () => {
      status.reload();
      factories.reload();
    },
  };
  return <RelayContext.Provider value={info}>{children}</RelayContext.Provider>;
}

export function useRelay(): RelayInfo {
  const info = useContext(RelayContext);
  if (!info) throw new Error('useRelay needs a RelayProvider above it');
  return info;
}

/** Why a write control is disabled, or null when the caller may write. */
export function useWriteBlock(managedReason?: string | null): string | null {
  const { canManage } = useRelay();
  if (!canManage) return VIEW_ONLY;
  return managedReason ?? null;
}
