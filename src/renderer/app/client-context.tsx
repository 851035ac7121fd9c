import { createContext, useContext, useEffect, useMemo, useRef, type ReactNode } from 'react';
import type { RelayEvent } from '../../shared/contract/events.js';
import type { ContractClient } from '../client/contract-client.js';

type Listener = (event: RelayEvent) => void;

interface ClientContextValue {
  client: ContractClient;
  listeners: Set<Listener>;
}

const ClientContext = createContext<ClientContextValue | null>(null);

/** One client and one event subscription for the whole app; pages register listeners on it. */
export function ClientProvider({
  client,
  children,
}: {
  client: ContractClient;
  children: ReactNode;
}): ReactNode {
  const value = useMemo<ClientContextValue>(() => ({ client, listeners: new Set() }), [client]);
  useEffect(
    () =>
      client.subscribe((event) => {
        for (const listener of value.listeners) listener(event);
      }),
    [client, value],
  );
  return <ClientContext.Provider value={value}>{children}</ClientContext.Provider>;
}

function useClientContext(): ClientContextValue {
  const value = useContext(ClientContext);
  if (!value) throw new Error('useClient needs a ClientProvider above it');
  return value;
}

export function useClient(): ContractClient {
  return useClientContext().client;
}

/** Calls `listener` for every live event while the component is mounted (latest closure wins). */
export function useRelayEvents(listener: Listener): void {
  const { listeners } = useClientContext();
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => {
    const forward: Listener = (event) => latest.current(event);
    listeners.add(forward);
    return () => {
      listeners.delete(forward);
    };
  }, [listeners]);
}
