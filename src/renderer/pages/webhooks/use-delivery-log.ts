import { useCallback, useEffect, useRef, useState } from 'react';
import { useClient, useRelayEvents } from '../../app/client-context.js';
import { toApiError } from '../../app/use-call.js';
import type { ContractClient } from '../../client/contract-client.js';
import { ApiError } from '../../../shared/errors.js';
import type { Delivery, DeliveryEntry, DeliveryLabel } from './types.js';

export const PAGE_SIZE = 200;

export interface LogQuery {
  uid: string;
  label: DeliveryLabel | null;
  /** A `dlv_…` ID, or an identity (the sender's delivery ID, or the body's SHA-256). */
  search: string;
}

interface LogState {
  key: string;
  items: Delivery[];
  nextBefore: string | null;
  error?: ApiError;
  /** IDs that arrived live, for a moment's highlight. */
  fresh: ReadonlySet<string>;
}

export const isDeliveryId = (text: string): boolean => /^dlv_/i.test(text);

function strip(entry: DeliveryEntry): Delivery {
  const { payload: _payload, ...delivery } = entry;
  return delivery;
}

async function readPage(
  client: ContractClient,
  query: LogQuery,
  before: string | undefined,
): Promise<{ items: Delivery[]; nextBefore: string | null }> {
  const search = query.search.trim();
  if (isDeliveryId(search)) {
    const entry = await client.call('deliveries.get', { id: search });
    if (entry.webhookUid !== query.uid)
      throw new ApiError('not_found', `${search} is a delivery of another webhook.`);
    const wanted = query.label === null || entry.label === query.label;
    return { items: wanted ? [strip(entry)] : [], nextBefore: null };
  }
  return client.call('deliveries.list', {
    uid: query.uid,
    limit: PAGE_SIZE,
    ...(before ? { before } : {}),
    ...(query.label ? { label: query.label } : {}),
    ...(search !== '' ? { identity: search } : {}),
  });
}

function matches(query: LogQuery, entry: Delivery): boolean {
  const search = query.search.trim();
  if (query.label !== null && entry.label !== query.label) return false;
  if (isDeliveryId(search)) return false;
  return search === '' || entry.identity === search;
}

/** Newest first; IDs are time-sortable, so a late event still lands in its place. */
function insert(items: Delivery[], entry: Delivery): Delivery[] {
  if (items.some((item) => item.id === entry.id)) return items;
  let at = 0;
  while (at < items.length && items[at]!.id > entry.id) at++;
  return [...items.slice(0, at), entry, ...items.slice(at)];
}

function appendOlder(items: Delivery[], older: Delivery[]): Delivery[] {
  const seen = new Set(items.map((item) => item.id));
  return [...items, ...older.filter((item) => !seen.has(item.id))];
}

/**
 * A webhook's delivery log, page by page (`before` cursor), with deliveries that arrive while it
 * is open inserted in place from the live events themselves (they carry the whole entry): no
 * polling, no read per event.
 */
export function useDeliveryLog(query: LogQuery) {
  const client = useClient();
  const key = JSON.stringify(query);
  const [state, setState] = useState<LogState>();
  const loadingMore = useRef(false);
  // Deliveries that arrive while the first page is on its way: that page may have been read
  // before they were committed.
  const early = useRef<{ key: string; items: Delivery[] }>({ key: '', items: [] });

  useEffect(() => {
    let current = true;
    const parsed = JSON.parse(key) as LogQuery;
    readPage(client, parsed, undefined).then(
      (page) => {
        if (!current) return;
        const arrived = early.current.key === key ? early.current.items : [];
        const items = arrived.reduce(insert, page.items);
        setState({ key, items, nextBefore: page.nextBefore, fresh: new Set() });
      },
      (error: unknown) => {
        if (current)
          setState({
            key,
            items: [],
            nextBefore: null,
            error: toApiError(error),
            fresh: new Set(),
          });
      },
    );
    return () => {
      current = false;
    };
  }, [client, key]);

  const mine = state?.key === key ? state : undefined;

  const loadMore = useCallback(() => {
    if (!mine?.nextBefore || loadingMore.current) return;
    loadingMore.current = true;
    const parsed = JSON.parse(key) as LogQuery;
    readPage(client, parsed, mine.nextBefore)
      .then(
        (page) =>
          setState((prev) =>
            prev?.key === key
              ? {
                  ...prev,
                  items: appendOlder(prev.items, page.items),
                  nextBefore: page.nextBefore,
                }
              : prev,
          ),
        (error: unknown) =>
          setState((prev) => (prev?.key === key ? { ...prev, error: toApiError(error) } : prev)),
      )
      .finally(() => {
        loadingMore.current = false;
      });
  }, [client, key, mine]);

  const settle = useCallback((id: string) => {
    setState((prev) => {
      if (!prev?.fresh.has(id)) return prev;
      const fresh = new Set(prev.fresh);
      fresh.delete(id);
      return { ...prev, fresh };
    });
  }, []);

  useRelayEvents((event) => {
    if (event.type !== 'delivery' || event.delivery.webhookUid !== query.uid) return;
    const delivery = event.delivery;
    if (!matches(query, delivery)) return;
    if (early.current.key !== key) early.current = { key, items: [] };
    early.current.items = [...early.current.items.slice(-49), delivery];
    setState((prev) =>
      prev?.key === key
        ? {
            ...prev,
            items: insert(prev.items, delivery),
            fresh: new Set([...prev.fresh, delivery.id]),
          }
        : prev,
    );
  });

  return {
    items: mine?.items ?? [],
    loading: mine === undefined,
    error: mine?.error,
    hasMore: mine?.nextBefore != null,
    fresh: mine?.fresh ?? new Set<string>(),
    /** The arrival highlight has played: a row scrolled back into view must not replay it. */
    settle,
    loadMore,
  };
}
