import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { DELIVERY_LABELS } from '../../../shared/labels.js';
import { labelClass } from '../../components/LabelBadge.js';
import {
  RANGES,
  SEARCH_MIN,
  localInput,
  localTime,
  withRange,
  type LogFilters,
  type RangeName,
} from './log-filters.js';

const SEARCH_DELAY_MS = 400;

/** Applies typed text a moment after the last keystroke, or at once on Enter. */
function useDebouncedText(
  applied: string,
  apply: (text: string) => void,
): [string, (text: string) => void, () => void] {
  const [text, setText] = useState(applied);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const change = (next: string): void => {
    setText(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => apply(next), SEARCH_DELAY_MS);
  };
  const now = (): void => {
    clearTimeout(timer.current);
    apply(text);
  };
  return [text, change, now];
}

/**
 * The log's toolbar: search (ID, identity, event type, payload), several labels at once, event
 * type, a time range (presets or custom from/to) and a jump to a date.
 */
export function DeliveryFilters({
  filters,
  eventTypes,
  onChange,
}: {
  filters: LogFilters;
  /** Event types seen in the loaded rows, offered as suggestions. */
  eventTypes: string[];
  /** Merged into the filters as they are when it lands (a debounced field may land late). */
  onChange: (patch: Partial<LogFilters>) => void;
}): ReactNode {
  const ids = useId();
  const [search, setSearch, searchNow] = useDebouncedText(filters.q, (q) =>
    onChange({ q: q.trim() }),
  );
  const [eventType, setEventType, eventTypeNow] = useDebouncedText(filters.eventType, (type) =>
    onChange({ eventType: type }),
  );
  const [jump, setJump] = useState(filters.jumpTo === null ? '' : localInput(filters.jumpTo));
  const tooShort = search.trim().length > 0 && search.trim().length < SEARCH_MIN;
  const submit =
    (apply: () => void) =>
    (event: FormEvent): void => {
      event.preventDefault();
      apply();
    };
  const toggle = (label: (typeof DELIVERY_LABELS)[number]): void =>
    onChange({
      labels: filters.labels.includes(label)
        ? filters.labels.filter((l) => l !== label)
        : DELIVERY_LABELS.filter((l) => l === label || filters.labels.includes(l)),
    });

  return (
    <div className="delivery-filters">
      <div className="filter-row">
        <form role="search" className="search-form" onSubmit={submit(searchNow)}>
          <input
            type="search"
            aria-label="Search deliveries"
            aria-describedby={tooShort ? `${ids}-short` : undefined}
            placeholder="Search payloads, IDs, identities, event types"
            value={search}
            spellCheck={false}
            onChange={(event) => setSearch(event.target.value)}
          />
        </form>
        <label className="inline-field">
          <span>Time</span>
          <select
            value={filters.range}
            onChange={(event) => onChange(withRange(event.target.value as RangeName, Date.now()))}
          >
            {Object.entries(RANGES).map(([name, range]) => (
              <option key={name} value={name}>
                {range.text}
              </option>
            ))}
          </select>
        </label>
        {filters.range === 'custom' && (
          <>
            <label className="inline-field">
              <span>From</span>
              <input
                type="datetime-local"
                value={filters.customFrom}
                onChange={(event) => onChange({ customFrom: event.target.value })}
              />
            </label>
            <label className="inline-field">
              <span>To</span>
              <input
                type="datetime-local"
                value={filters.customTo}
                onChange={(event) => onChange({ customTo: event.target.value })}
              />
            </label>
          </>
        )}
      </div>
      {tooShort && (
        <p id={`${ids}-short`} className="hint">
          Type at least {SEARCH_MIN} characters to search.
        </p>
      )}
      <div className="filter-row">
        <div className="label-filter" role="group" aria-label="Labels">
          {DELIVERY_LABELS.map((label) => (
            <button
              key={label}
              type="button"
              className={`chip label-chip ${labelClass(label)}`}
              aria-pressed={filters.labels.includes(label)}
              onClick={() => toggle(label)}
            >
              {label}
            </button>
          ))}
        </div>
        <form className="inline-field" onSubmit={submit(eventTypeNow)}>
          <label htmlFor={`${ids}-type`}>Event type</label>
          <input
            id={`${ids}-type`}
            list={`${ids}-types`}
            className="event-type-input"
            placeholder="any"
            value={eventType}
            spellCheck={false}
            onChange={(event) => setEventType(event.target.value)}
          />
          <datalist id={`${ids}-types`}>
            {eventTypes.map((type) => (
              <option key={type} value={type} />
            ))}
          </datalist>
        </form>
        <form
          className="inline-field"
          onSubmit={submit(() => onChange({ jumpTo: localTime(jump) }))}
        >
          <label htmlFor={`${ids}-jump`}>Jump to</label>
          <input
            id={`${ids}-jump`}
            type="datetime-local"
            value={jump}
            onChange={(event) => setJump(event.target.value)}
          />
          <button type="submit" disabled={localTime(jump) === null}>
            Go
          </button>
        </form>
      </div>
    </div>
  );
}
