import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useRef, type ReactNode } from 'react';
import type { FilterMatch } from '../../../shared/contract/filter-lab.js';
import { formatTime } from '../../components/format.js';

/** One row's height as styled (a line of text and the cell padding), for the first layout. */
const ROW_PX = 31;

/**
 * The lab's rows (up to 500), only those in view in the DOM: typing in the filter re-renders
 * the editor on each key, and 500 table rows each time made keys lag (long tasks of 100 ms+).
 * Memoized: a key that changes neither the rows nor the marked one does not touch them.
 */
export const LabRows = memo(function LabRows({
  items,
  picked,
  onOpen,
}: {
  items: readonly FilterMatch[];
  picked: string;
  onOpen: (deliveryId: string) => void;
}): ReactNode {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_PX,
    overscan: 10,
  });
  const rows = virtualizer.getVirtualItems();
  const before = rows[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (rows.at(-1)?.end ?? 0);
  return (
    <div className="lab-scroll" ref={scrollRef}>
      <table className="table lab-table">
        <thead>
          <tr>
            <th scope="col">Verdict</th>
            <th scope="col">Event type</th>
            <th scope="col">Received</th>
            <th scope="col">Delivery</th>
          </tr>
        </thead>
        <tbody>
          {before > 0 && <tr aria-hidden="true" style={{ height: before }} />}
          {rows.map((row) => {
            const item = items[row.index]!;
            return (
              <tr
                key={item.deliveryId}
                ref={virtualizer.measureElement}
                data-index={row.index}
                title={item.detail ?? undefined}
                aria-current={item.deliveryId === picked ? 'true' : undefined}
              >
                <td>
                  <span className={item.verdict === 'Would trigger' ? 'lab-yes' : 'lab-no'}>
                    {item.verdict === 'Would trigger' ? '✓ Would trigger' : '✗ Would not'}
                  </span>
                </td>
                <td>{item.eventType ?? <span className="muted">—</span>}</td>
                <td>{formatTime(item.receivedAt)}</td>
                <td>
                  <button
                    type="button"
                    className="link"
                    aria-label={`${item.deliveryId.slice(-8)}: open ${item.deliveryId} in Test filter`}
                    onClick={() => onOpen(item.deliveryId)}
                  >
                    <code>{item.deliveryId.slice(-8)}</code>
                  </button>
                </td>
              </tr>
            );
          })}
          {after > 0 && <tr aria-hidden="true" style={{ height: after }} />}
        </tbody>
      </table>
    </div>
  );
});
