import type { KeyboardEvent, ReactNode } from 'react';
import { formatBytes, formatTime, isOverBodyLimit } from '../../components/format.js';
import { LabelBadge } from '../../components/LabelBadge.js';
import { deliveryNote, hasNote } from './delivery-note.js';
import { EventTypeChip } from './EventTypeChip.js';
import { MatchText, SummaryText } from './SummaryText.js';
import type { Delivery } from './types.js';

/** One log entry as a single focusable line: label, ID, size, time, and why if it was refused. */
export function DeliveryRow({
  delivery,
  index,
  expanded,
  fresh,
  noteBelow,
  controls,
  onToggle,
  onArrived,
  onKeyDown,
  search = '',
}: {
  delivery: Delivery;
  index: number;
  expanded: boolean;
  fresh: boolean;
  /** The note on a second line: in a narrow list one line leaves it a few letters. */
  noteBelow: boolean;
  controls: string;
  onToggle: () => void;
  onArrived: () => void;
  onKeyDown: (event: KeyboardEvent<HTMLButtonElement>) => void;
  /** The log's search, marked in the summary where it matches there. */
  search?: string;
}): ReactNode {
  const note = deliveryNote(delivery);
  const classes = ['delivery-row'];
  if (fresh) classes.push('delivery-fresh');
  if (noteBelow && hasNote(delivery)) classes.push('note-below');
  return (
    <button
      type="button"
      className={classes.join(' ')}
      data-index={index}
      data-delivery-id={delivery.id}
      aria-expanded={expanded}
      aria-controls={expanded ? controls : undefined}
      onClick={onToggle}
      onAnimationEnd={fresh ? onArrived : undefined}
      onKeyDown={onKeyDown}
    >
      <span className="delivery-label">
        <LabelBadge label={delivery.label} />
      </span>
      <code className="delivery-id">{delivery.id}</code>
      <span
        className={isOverBodyLimit(delivery.size) ? 'delivery-size over-limit' : 'delivery-size'}
      >
        {formatBytes(delivery.size)}
      </span>
      <time className="delivery-time" dateTime={delivery.receivedAt} title={delivery.receivedAt}>
        {formatTime(delivery.receivedAt)}
      </time>
      <span
        className="delivery-note"
        title={
          [delivery.summary, delivery.match ?? null, note]
            .filter((part) => part !== null)
            .join(' — ') || undefined
        }
      >
        <EventTypeChip eventType={delivery.eventType} />
        {delivery.recovered && (
          <span className="chip recovered-chip" title="Brought by a provider link's recovery">
            Recovered
          </span>
        )}
        {/* Why a search found it comes first: a long summary must not push it out of the row. */}
        <MatchText match={delivery.match} search={search} />
        <SummaryText summary={delivery.summary} search={search} />
        {delivery.summary !== null && note !== null && ' — '}
        {note}
      </span>
      <span className="delivery-caret" aria-hidden="true">
        {expanded ? '▾' : '▸'}
      </span>
    </button>
  );
}
