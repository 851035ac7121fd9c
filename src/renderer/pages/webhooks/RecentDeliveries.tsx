import { useVirtualizer } from '@tanstack/react-virtual';
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { useRelay } from '../../app/relay-context.js';
import { navigate } from '../../app/router.js';
import { AGGREGATE_RELOAD_MS, useCall } from '../../app/use-call.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { formatCount } from '../../components/format.js';
import { idTime } from '../../../shared/delivery-ids.js';
import { sampleCommand } from './sample-command.js';
import { DeliveryFilters } from './DeliveryFilters.js';
import { hasNote } from './delivery-note.js';
import { DeliveryRow } from './DeliveryRow.js';
import { NO_FILTERS, toQuery, type LogFilters } from './log-filters.js';
import { ReplayShown } from './ReplayShown.js';
import type { Delivery, Webhook } from './types.js';
import { isFiltered, useDeliveryLog } from './use-delivery-log.js';
import { useListTop } from './use-list-top.js';
import { useNoteBelow } from './use-note-below.js';
import './deliveries.css';

const ROW_HEIGHT = 34;
/** A row whose note has a line of its own. */
const TALL_ROW_HEIGHT = 52;
/** Ask for the next page this many rows before the end, so scrolling never waits. */
const PREFETCH_ROWS = 60;

function EmptyLog({ webhook, filtered }: { webhook: Webhook; filtered: boolean }): ReactNode {
  const { status } = useRelay();
  if (filtered) return <p className="empty">No delivery matches this filter.</p>;
  return (
    <div className="empty">
      <p>No deliveries yet. Send one and it appears here at once:</p>
      <pre className="block">
        {sampleCommand(webhook, webhook.ingressUrl, null, status.cliCommand)}
      </pre>
    </div>
  );
}

const plural = (n: number): string => (n === 1 ? 'delivery' : 'deliveries');

/** "1,204 of 21,000 deliveries, newest first · live", or why there is no count yet. */
function statusText(
  total: number | null,
  all: number | undefined,
  filtered: boolean,
  jumpTo: number | null,
): string {
  const of = `${all === undefined ? '…' : formatCount(all)} ${plural(all ?? 2)}`;
  const count =
    total === null
      ? `Counting the matches among ${of}`
      : filtered
        ? `${formatCount(total)} of ${of}`
        : `${formatCount(total)} ${plural(total)}`;
  if (jumpTo !== null) {
    const at = new Date(jumpTo).toLocaleString(undefined, {
      dateStyle: 'medium',
      timeStyle: 'short',
    });
    return `${count}; showing from ${at} back`;
  }
  return `${count}, newest first · live`;
}

/**
 * Recent deliveries: newest first, live, virtualized; searched (payload text, partial ID,
 * identity, event type), filtered by labels, event type and time, with exact totals.
 */
export function RecentDeliveries({
  webhook,
  deliveryId,
  detailId,
}: {
  webhook: Webhook;
  deliveryId: string | undefined;
  /** The open delivery's panel, which the rows control. */
  detailId: string;
}): ReactNode {
  const [filters, setFilters] = useState<LogFilters>(NO_FILTERS);
  // Clearing the filters starts the toolbar afresh (its fields keep what is being typed).
  const [toolbarKey, setToolbarKey] = useState(0);
  const query = toQuery(webhook.uid, filters);
  const filtered = isFiltered(query);
  const log = useDeliveryLog(query);
  const everything = useCall(
    'deliveries.count',
    filtered ? { uid: webhook.uid } : null,
    (event) => event.type === 'delivery' && event.delivery.webhookUid === webhook.uid,
    AGGREGATE_RELOAD_MS,
  );
  const clear = (): void => {
    setFilters(NO_FILTERS);
    setToolbarKey((k) => k + 1);
  };
  // The list is part of the page and scrolls with it (no scroll box inside a scrolling page): the
  // virtualizer reads the page's scroll element and where on it the list starts.
  const scrollRef = useRef<HTMLDivElement>(null);
  const sectionRef = useRef<HTMLElement>(null);
  const pageScroller = (): HTMLElement | null =>
    sectionRef.current?.closest<HTMLElement>('.main') ?? null;
  const listShown = !(!log.loading && log.items.length === 0 && !log.error);
  const listTop = useListTop(scrollRef, pageScroller, listShown);
  const noteBelow = useNoteBelow(sectionRef);
  const heightOf = (delivery: Delivery | undefined): number =>
    noteBelow && delivery && hasNote(delivery) ? TALL_ROW_HEIGHT : ROW_HEIGHT;
  // Sizes are known from the rows, never measured; a new key function (new rows, or the notes
  // moving to their own line) makes the virtualizer lay them out again.
  const items = log.items;
  const getItemKey = useCallback(
    (index: number): string => `${items[index]?.id ?? index}${noteBelow ? ':tall' : ''}`,
    [items, noteBelow],
  );
  // The virtualizer's functions are not memoizable; this component does not rely on that.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: log.items.length,
    getScrollElement: pageScroller,
    estimateSize: (index) => heightOf(log.items[index]),
    getItemKey,
    overscan: 12,
    scrollMargin: listTop,
  });
  const shownRows = virtualizer.getVirtualItems();
  const lastShown = shownRows.at(-1)?.index ?? -1;
  const { loadMore } = log;
  useEffect(() => {
    if (lastShown >= 0 && lastShown >= log.items.length - PREFETCH_ROWS) loadMore();
  }, [lastShown, log.items.length, loadMore]);

  // A row arriving on top must not push away the rows someone is reading further down.
  const firstId = log.items[0]?.id;
  const previousFirst = useRef(firstId);
  useLayoutEffect(() => {
    const before = previousFirst.current;
    previousFirst.current = firstId;
    const element = pageScroller();
    // Above the list's first row, new rows may push it down: the newest is what one expects.
    if (!element || !before || before === firstId || element.scrollTop <= listTop) return;
    const shift = log.items.findIndex((item) => item.id === before);
    if (shift > 0)
      element.scrollTop += log.items.slice(0, shift).reduce((sum, d) => sum + heightOf(d), 0);
    // heightOf changes only with noteBelow, which re-lays the list out anyway.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [firstId, log.items]);

  // A link to a delivery (from a run, say) lands on it: the list starts at its time when it is
  // not among the rows loaded, and scrolls to its row.
  const landed = useRef<string | null>(null);
  const loadedIndex = deliveryId ? log.items.findIndex((d) => d.id === deliveryId) : -1;
  useEffect(() => {
    if (!deliveryId || log.loading || landed.current === deliveryId) return;
    if (loadedIndex >= 0) {
      landed.current = deliveryId;
      virtualizer.scrollToIndex(loadedIndex, { align: 'auto' });
    } else if (filters.jumpTo !== idTime(deliveryId)) {
      setFilters({ ...NO_FILTERS, jumpTo: idTime(deliveryId) });
      setToolbarKey((k) => k + 1);
    } else {
      landed.current = deliveryId;
    }
  }, [deliveryId, loadedIndex, log.loading, filters.jumpTo, virtualizer]);

  const toggle = (id: string): void => {
    landed.current = id;
    if (id === deliveryId) navigate('webhooks', webhook.uid);
    else navigate('webhooks', webhook.uid, id);
  };
  const focusRow = (index: number): void => {
    const target = Math.max(0, Math.min(log.items.length - 1, index));
    virtualizer.scrollToIndex(target);
    // The row exists only once the virtualizer has rendered that stretch: try for a few frames.
    const focus = (frames: number): void => {
      const row = scrollRef.current?.querySelector<HTMLElement>(`[data-index="${target}"]`);
      if (row) row.focus();
      else if (frames > 0) requestAnimationFrame(() => focus(frames - 1));
    };
    requestAnimationFrame(() => focus(10));
  };
  const onRowKey = (event: KeyboardEvent<HTMLButtonElement>, index: number): void => {
    const moves: Record<string, number> = {
      ArrowDown: index + 1,
      ArrowUp: index - 1,
      Home: 0,
      End: log.items.length - 1,
      PageDown: index + 10,
      PageUp: index - 10,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    focusRow(next);
  };

  const count = log.items.length;
  const eventTypes = [
    ...new Set(log.items.map((d) => d.eventType).filter((t): t is string => t !== null)),
  ].slice(0, 50);
  return (
    <section ref={sectionRef} className="recent-deliveries" aria-label="Recent deliveries">
      {/* The title, filters and count stay in view while the page scrolls the list. */}
      <div className="deliveries-head">
        <div className="deliveries-toolbar">
          <h3>Recent deliveries</h3>
          <span className="spacer" />
          <ReplayShown shown={log.items} />
        </div>
        <DeliveryFilters
          key={toolbarKey}
          filters={filters}
          eventTypes={eventTypes}
          onChange={(patch) => setFilters((current) => ({ ...current, ...patch }))}
        />
        <div className="deliveries-status">
          <p className="hint" role="status">
            {log.loading
              ? 'Loading…'
              : statusText(
                  log.total,
                  filtered ? everything.data?.total : undefined,
                  filtered,
                  query.jumpTo,
                )}
          </p>
          {query.jumpTo !== null && (
            <button
              type="button"
              className="link"
              onClick={() => setFilters((f) => ({ ...f, jumpTo: null }))}
            >
              Back to newest
            </button>
          )}
          {(filtered || query.jumpTo !== null) && (
            <button type="button" className="link" onClick={clear}>
              Clear filters
            </button>
          )}
        </div>
      </div>
      <ErrorNote error={log.error} />
      {!log.loading && count === 0 && !log.error ? (
        <EmptyLog webhook={webhook} filtered={filtered || query.jumpTo !== null} />
      ) : (
        <div
          ref={scrollRef}
          className="delivery-scroll"
          role="list"
          aria-label="Deliveries, newest first"
          data-loaded={count}
        >
          <div className="delivery-rows" style={{ height: virtualizer.getTotalSize() }}>
            {shownRows.map((row) => {
              const delivery = log.items[row.index];
              if (!delivery) return null;
              return (
                <div
                  key={delivery.id}
                  role="listitem"
                  aria-setsize={log.hasMore ? -1 : count}
                  aria-posinset={row.index + 1}
                  className="delivery-slot"
                  style={{ transform: `translateY(${row.start - listTop}px)`, height: row.size }}
                >
                  <DeliveryRow
                    delivery={delivery}
                    index={row.index}
                    expanded={delivery.id === deliveryId}
                    fresh={log.fresh.has(delivery.id)}
                    noteBelow={noteBelow}
                    controls={detailId}
                    onToggle={() => toggle(delivery.id)}
                    onArrived={() => log.settle(delivery.id)}
                    onKeyDown={(event) => onRowKey(event, row.index)}
                    search={filters.q}
                  />
                </div>
              );
            })}
          </div>
        </div>
      )}
    </section>
  );
}
