import { useCallback, useEffect, useRef, useState } from 'react';
import { useClient, useRelayEvents } from '../../app/client-context.js';
import { useConnection } from '../../app/connection.js';
import { DELIVERY_PAGE_SIZE, takeFirstRead } from '../../app/first-reads.js';
import { toApiError } from '../../app/use-call.js';
import type { ContractClient } from '../../client/contract-client.js';
import { idFloor } from '../../../shared/delivery-ids.js';
import type { ApiError } from '../../../shared/errors.js';
import type { LogQuery } from './log-filters.js';
import type { Delivery } from './types.js';

export { isFiltered, type LogQuery } from './log-filters.js';

export const PAGE_SIZE = DELIVERY_PAGE_SIZE;
/** A burst of live deliveries into a searched log is one read of its newest page, a moment later. */
const HEAD_REFRESH_MS = 600;

interface LogState {
  key: string;
  items: Delivery[];
  nextBefore: string | null;
  /** Entries matching the filters, on every page (as the relay counted them); null while counted. */
  total: number | null;
  error?: ApiError;
  /** IDs that arrived live, for a moment's highlight. */
  fresh: ReadonlySet<string>;
}

function readPage(
  client: ContractClient,
  query: LogQuery,
  before: string | undefined,
): Promise<{ items: Delivery[]; nextBefore: string | null; total?: number }> {
  const start = before ?? (query.jumpTo !== null ? idFloor(query.jumpTo + 1) : undefined);
  return client.call('deliveries.list', pageInput(query, start));
}

/**
 * A text search's page comes without its total, which is read apart: the first count of a
 * common text can take seconds on a week's log (PostgreSQL), and the page is there at once.
 */
const totalLater = (query: LogQuery): boolean => query.q !== '';

function pageInput(query: LogQuery, start: string | undefined) {
  return {
    uid: query.uid,
    limit: PAGE_SIZE,
    ...(start ? { before: start } : {}),
    ...narrowing(query),
    ...(totalLater(query) ? { total: 'later' as const } : {}),
  };
}

function narrowing(query: LogQuery) {
  return {
    ...(query.labels.length > 0 ? { labels: query.labels.join(',') } : {}),
    ...(query.q !== '' ? { q: query.q } : {}),
    ...(query.eventType !== '' ? { eventType: query.eventType } : {}),
    ...(query.from !== null ? { from: query.from } : {}),
    ...(query.to !== null ? { to: query.to } : {}),
  };
}

async function readTotal(
  client: ContractClient,
  query: LogQuery,
  signal: AbortSignal,
): Promise<number> {
  const input = { uid: query.uid, ...narrowing(query) };
  return (await client.call('deliveries.count', input, { signal })).total;
}

const contains = (text: string | null, needle: string): boolean =>
  text !== null && text.toLowerCase().includes(needle.toLowerCase());

/**
 * Whether a live entry belongs in the list: `true`, `false`, or `null` when only the relay can
 * tell (a search that may match the payload, which events do not carry).
 */
function matches(query: LogQuery, entry: Delivery): boolean | null {
  if (query.labels.length > 0 && !query.labels.includes(entry.label)) return false;
  if (query.eventType !== '' && entry.eventType !== query.eventType) return false;
  const at = Date.parse(entry.receivedAt);
  if (query.from !== null && at < query.from) return false;
  if (query.to !== null && at > query.to) return false;
  if (query.q === '') return true;
  const inMetadata = [entry.id, entry.identity, entry.eventType].some((t) => contains(t, query.q));
  return inMetadata ? true : entry.label === 'Accepted' ? null : false;
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
 * A webhook's delivery log, page by page (`before` cursor), narrowed by a query, with its exact
 * total. Deliveries that arrive while it is open are inserted in place from the live events
 * themselves (they carry the whole entry); only a search that may match a payload asks the relay
 * again, for its newest page.
 */
export function useDeliveryLog(query: LogQuery) {
  const client = useClient();
  const key = JSON.stringify(query);
  const [state, setState] = useState<LogState>();
  const loadingMore = useRef(false);
  // Deliveries that arrive while the first page is on its way: that page may have been read
  // before they were committed.
  const early = useRef<{ key: string; items: Delivery[] }>({ key: '', items: [] });
  const headTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  const mine = state?.key === key ? state : undefined;

  // The count under way, and whether an entry arrived since it was asked for.
  const counting = useRef<{ key: string; again: boolean; stop: AbortController } | null>(null);

  /**
   * The total of a page that came without one, once the relay has counted it. One count at a
   * time: live entries each asked for one, and on a week's log a common text's first count takes
   * seconds; an entry that arrives meanwhile asks for one more when it lands (counted on, fast).
   * A count no longer shown (another search) is stopped, on the relay too.
   */
  const countLater = useCallback(() => {
    if (counting.current?.key === key) {
      counting.current.again = true;
      return;
    }
    counting.current?.stop.abort();
    const asked = { key, again: false, stop: new AbortController() };
    counting.current = asked;
    const ask = (): void => {
      readTotal(client, JSON.parse(key) as LogQuery, asked.stop.signal)
        .then(
          (total) => setState((prev) => (prev?.key === key ? { ...prev, total } : prev)),
          (error: unknown) => {
            if (asked.stop.signal.aborted) return;
            setState((prev) => (prev?.key === key ? { ...prev, error: toApiError(error) } : prev));
          },
        )
        .finally(() => {
          if (counting.current !== asked) return;
          if (!asked.again) {
            counting.current = null;
            return;
          }
          asked.again = false;
          ask();
        });
    };
    ask();
  }, [client, key]);

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
                  total: page.total ?? prev.total,
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

  /** Asks the relay for the newest page again and merges what is new (a search's live rows). */
  const refreshHead = useCallback(() => {
    clearTimeout(headTimer.current);
    headTimer.current = setTimeout(() => {
      const parsed = JSON.parse(key) as LogQuery;
      readPage(client, parsed, undefined).then(
        (page) => {
          setState((prev) => {
            if (prev?.key !== key) return prev;
            const known = new Set(prev.items.map((item) => item.id));
            const added = parsed.jumpTo === null ? page.items.filter((i) => !known.has(i.id)) : [];
            return {
              ...prev,
              items: added.reduce(insert, prev.items),
              total: page.total ?? prev.total,
              fresh: new Set([...prev.fresh, ...added.map((item) => item.id)]),
            };
          });
          if (page.total === undefined) countLater();
        },
        () => {
          // The next event tries again; the list keeps what it has.
        },
      );
    }, HEAD_REFRESH_MS);
  }, [client, key, countLater]);

  useEffect(() => {
    let current = true;
    const parsed = JSON.parse(key) as LogQuery;
    // The entry script may have read this page already, while the page's code was loading.
    const prefetched = takeFirstRead(client, 'deliveries.list', pageInput(parsed, undefined));
    (prefetched ?? readPage(client, parsed, undefined)).then(
      (page) => {
        if (!current) return;
        // What arrived between that early read and this list listening: the newest page again.
        if (prefetched) refreshHead();
        const arrived = early.current.key === key ? early.current.items : [];
        const items = parsed.jumpTo === null ? arrived.reduce(insert, page.items) : page.items;
        const total = page.total ?? null;
        setState({ key, items, nextBefore: page.nextBefore, total, fresh: new Set() });
        if (total === null) countLater();
      },
      (error: unknown) => {
        if (current)
          setState({
            key,
            items: [],
            nextBefore: null,
            total: 0,
            error: toApiError(error),
            fresh: new Set(),
          });
      },
    );
    return () => {
      current = false;
      clearTimeout(headTimer.current);
      if (counting.current?.key === key) {
        counting.current.stop.abort();
        counting.current = null;
      }
    };
  }, [client, key, refreshHead, countLater]);

  // Back after the relay was away: what arrived meanwhile sent no event here; read the head.
  const { epoch } = useConnection();
  useEffect(() => {
    if (epoch > 0) refreshHead();
  }, [epoch, refreshHead]);

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
    const verdict = matches(query, delivery);
    if (verdict === null) return refreshHead();
    if (!verdict) return;
    if (early.current.key !== key) early.current = { key, items: [] };
    early.current.items = [...early.current.items.slice(-49), delivery];
    setState((prev) => {
      if (prev?.key !== key || prev.items.some((item) => item.id === delivery.id)) return prev;
      // A list started at a date shows nothing newer; its total still counts the new entry.
      // A total still being counted is read after this entry's commit, and includes it.
      const total = prev.total === null ? null : prev.total + 1;
      if (query.jumpTo !== null) return { ...prev, total };
      return {
        ...prev,
        items: insert(prev.items, delivery),
        total,
        fresh: new Set([...prev.fresh, delivery.id]),
      };
    });
  });

  return {
    items: mine?.items ?? [],
    loading: mine === undefined,
    error: mine?.error,
    hasMore: mine?.nextBefore != null,
    /** null while the relay counts a search's matches. */
    total: mine ? mine.total : 0,
    fresh: mine?.fresh ?? new Set<string>(),
    /** The arrival highlight has played: a row scrolled back into view must not replay it. */
    settle,
    loadMore,
  };
}
