import type { DeliveryLabel } from './types.js';

/** What the log is narrowed to; every part holds at once. */
export interface LogQuery {
  uid: string;
  /** Any of these; none: every label. */
  labels: DeliveryLabel[];
  /** A substring of the ID, identity, event type or payload (3 characters or more), or ''. */
  q: string;
  /** Exactly this event type, or ''. */
  eventType: string;
  /** Received at or after / at or before (epoch ms), or null. */
  from: number | null;
  to: number | null;
  /** Start the list at this moment instead of at the newest entry (epoch ms), or null. */
  jumpTo: number | null;
}

export const isFiltered = (query: LogQuery): boolean =>
  query.labels.length > 0 ||
  query.q !== '' ||
  query.eventType !== '' ||
  query.from !== null ||
  query.to !== null;

export const SEARCH_MIN = 3;
const HOUR_MS = 3_600_000;

export const RANGES = {
  any: { text: 'Any time', ms: null },
  hour: { text: 'Last hour', ms: HOUR_MS },
  day: { text: 'Last 24 hours', ms: 24 * HOUR_MS },
  week: { text: 'Last 7 days', ms: 7 * 24 * HOUR_MS },
  custom: { text: 'Custom range…', ms: null },
} as const;
export type RangeName = keyof typeof RANGES;

/** What the operator set in the toolbar. Presets are fixed when chosen, so the query stays put. */
export interface LogFilters {
  labels: DeliveryLabel[];
  q: string;
  eventType: string;
  range: RangeName;
  /** A preset's start, fixed when it was chosen (epoch ms). */
  presetFrom: number | null;
  /** `datetime-local` values of a custom range ('' = open). */
  customFrom: string;
  customTo: string;
  jumpTo: number | null;
}

export const NO_FILTERS: LogFilters = {
  labels: [],
  q: '',
  eventType: '',
  range: 'any',
  presetFrom: null,
  customFrom: '',
  customTo: '',
  jumpTo: null,
};

/** A `datetime-local` value as epoch ms (the browser's time zone), or null when blank or invalid. */
export function localTime(value: string): number | null {
  if (value === '') return null;
  const ms = new Date(value).getTime();
  return Number.isFinite(ms) ? ms : null;
}

/** Epoch ms as a `datetime-local` value. */
export function localInput(ms: number): string {
  const date = new Date(ms);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function withRange(range: RangeName, now: number): Pick<LogFilters, 'range' | 'presetFrom'> {
  const ms = RANGES[range].ms;
  return { range, presetFrom: ms === null ? null : now - ms };
}

export function toQuery(uid: string, filters: LogFilters): LogQuery {
  const custom = filters.range === 'custom';
  // A custom "to" names a minute: everything received within it counts.
  const customTo = localTime(filters.customTo);
  return {
    uid,
    labels: filters.labels,
    q: filters.q.length >= SEARCH_MIN ? filters.q : '',
    eventType: filters.eventType.trim(),
    from: custom ? localTime(filters.customFrom) : filters.presetFrom,
    to: custom && customTo !== null ? customTo + 59_999 : null,
    jumpTo: filters.jumpTo,
  };
}
