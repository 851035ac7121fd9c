import { useVirtualizer } from '@tanstack/react-virtual';
import {
  useCallback,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { useRelay } from '../../app/relay-context.js';
import { navigate } from '../../app/router.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { DELIVERY_LABELS } from '../../../shared/labels.js';
import { sampleCommand } from './sample-command.js';
import { DeliveryDetail } from './DeliveryDetail.js';
import { deliveryNote } from './delivery-note.js';
import { DeliveryRow } from './DeliveryRow.js';
import type { Delivery, DeliveryLabel, Webhook } from './types.js';
import { isDeliveryId, useDeliveryLog } from './use-delivery-log.js';
import { useNoteBelow } from './use-note-below.js';
import './deliveries.css';

const ROW_HEIGHT = 34;
/** A row whose note has a line of its own. */
const TALL_ROW_HEIGHT = 52;
const MAX_LIST_HEIGHT = ROW_HEIGHT * 12;
const SEARCH_DELAY_MS = 400;
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

/** Recent deliveries: newest first, live, virtualized, filtered by label or searched. */
export function RecentDeliveries({
  webhook,
  deliveryId,
}: {
  webhook: Webhook;
  deliveryId: string | undefined;
}): ReactNode {
  const detailId = useId();
  const [label, setLabel] = useState<DeliveryLabel | null>(null);
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const log = useDeliveryLog({ uid: webhook.uid, label, search });
  const scrollRef = useRef<HTMLDivElement>(null);
  const sectionRef = useRef<HTMLElement>(null);
  const noteBelow = useNoteBelow(sectionRef);
  const heightOf = (delivery: Delivery | undefined): number =>
    noteBelow && delivery && deliveryNote(delivery) ? TALL_ROW_HEIGHT : ROW_HEIGHT;
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
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => heightOf(log.items[index]),
    getItemKey,
    overscan: 12,
  });

  // A row arriving on top must not push away the rows someone is reading further down.
  const firstId = log.items[0]?.id;
  const previousFirst = useRef(firstId);
  useLayoutEffect(() => {
    const before = previousFirst.current;
    previousFirst.current = firstId;
    const element = scrollRef.current;
    if (!element || !before || before === firstId || element.scrollTop === 0) return;
    const shift = log.items.findIndex((item) => item.id === before);
    if (shift > 0)
      element.scrollTop += log.items.slice(0, shift).reduce((sum, d) => sum + heightOf(d), 0);
    // heightOf changes only with noteBelow, which re-lays the list out anyway.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [firstId, log.items]);

  const applySearch = (text: string): void => {
    clearTimeout(timer.current);
    setSearch(text.trim());
  };
  const onSearchChange = (text: string): void => {
    setSearchText(text);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setSearch(text.trim()), SEARCH_DELAY_MS);
  };
  const toggle = (id: string): void => {
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

  const filtered = label !== null || search !== '';
  const count = log.items.length;
  return (
    <section ref={sectionRef} className="recent-deliveries" aria-label="Recent deliveries">
      <div className="deliveries-toolbar">
        <h3>Recent deliveries</h3>
        <span className="spacer" />
        <select
          aria-label="Filter by label"
          value={label ?? ''}
          onChange={(event) =>
            setLabel(event.target.value === '' ? null : (event.target.value as DeliveryLabel))
          }
        >
          <option value="">All labels</option>
          {DELIVERY_LABELS.map((l) => (
            <option key={l} value={l}>
              {l}
            </option>
          ))}
        </select>
        <form
          role="search"
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            applySearch(searchText);
          }}
        >
          <input
            type="search"
            aria-label="Search deliveries"
            placeholder="dlv_… or identity"
            value={searchText}
            spellCheck={false}
            onChange={(event) => onSearchChange(event.target.value)}
          />
        </form>
      </div>
      <p className="hint deliveries-status">
        {log.loading
          ? 'Loading…'
          : isDeliveryId(search)
            ? `Delivery ${search}`
            : `${count}${log.hasMore ? '+' : ''} ${count === 1 ? 'delivery' : 'deliveries'}${
                search ? ` with identity “${search}”` : ''
              }, newest first · live`}
      </p>
      <ErrorNote error={log.error} />
      {!log.loading && count === 0 && !log.error ? (
        <EmptyLog webhook={webhook} filtered={filtered} />
      ) : (
        <div
          ref={scrollRef}
          className="delivery-scroll"
          role="list"
          aria-label="Deliveries, newest first"
          style={{ height: Math.min(MAX_LIST_HEIGHT, virtualizer.getTotalSize()) + 2 }}
          onScroll={(event) => {
            const element = event.currentTarget;
            const left = element.scrollHeight - element.scrollTop - element.clientHeight;
            if (left < PREFETCH_ROWS * ROW_HEIGHT) log.loadMore();
          }}
        >
          <div className="delivery-rows" style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((row) => {
              const delivery = log.items[row.index];
              if (!delivery) return null;
              return (
                <div
                  key={delivery.id}
                  role="listitem"
                  aria-setsize={log.hasMore ? -1 : count}
                  aria-posinset={row.index + 1}
                  className="delivery-slot"
                  style={{ transform: `translateY(${row.start}px)`, height: row.size }}
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
                  />
                </div>
              );
            })}
          </div>
        </div>
      )}
      {deliveryId && (
        <DeliveryDetail
          key={deliveryId}
          id={detailId}
          deliveryId={deliveryId}
          webhook={webhook}
          onClose={() => navigate('webhooks', webhook.uid)}
        />
      )}
    </section>
  );
}
