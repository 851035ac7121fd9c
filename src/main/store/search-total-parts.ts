import type { DeliveryPageFilter } from './deliveries.js';

/**
 * A kept search total in parts: one per hour for the webhook's oldest hours (by `received_at`),
 * the rest of the log one part. Each part holds the search's hits among the entries counted in it
 * and how many entries were counted there. Retention deletes the oldest hour every hour: a part
 * whose entries are all gone is dropped, and only an hour that lost some of them is counted again,
 * not the whole log (a common text's first count takes seconds at a week's scale); as the oldest
 * hours go, the next ones are counted apart from the rest, one by one. Only when an entry of the
 * rest is deleted is the total counted whole again.
 */
export const PART_MS = 60 * 60_000;
/** Searches whose totals are kept (the latest used): a list, its pages, a few filters beside. */
const KEPT_SEARCHES = 64;

/** A search's name among the kept totals: the webhook and its filters. */
export const searchKey = (webhookUid: string, only: DeliveryPageFilter): string =>
  JSON.stringify([webhookUid, only]);

/** `value` kept for `key` as the latest used, the least recently used past KEPT_SEARCHES let go. */
export function keepLatest<V>(kept: Map<string, V>, key: string, value: V): void {
  kept.delete(key);
  kept.set(key, value);
  if (kept.size > KEPT_SEARCHES) kept.delete(kept.keys().next().value!);
}
/** The oldest hours kept apart: a day of hourly prunes between whole counts. */
export const HOURS_APART = 24;

/** Which hours are parts of their own: from `lowest` (and all before) up to `rest` (and all after). */
export interface Span {
  lowest: number;
  rest: number;
}

export const spanFrom = (lowestHour: number): Span => ({
  lowest: lowestHour,
  rest: lowestHour + HOURS_APART,
});

/** An hour's part. */
export const partOf = (hour: number, span: Span): number =>
  Math.min(Math.max(hour, span.lowest), span.rest);

/**
 * A first count's hits by part, as the columns of its one aggregate (`count(*) FILTER`), from the
 * span's lowest hour on. Grouped (`GROUP BY`), PostgreSQL's planner had a log without statistics
 * (a new database) rescan the trigram arms' parallel workers once per entry: seconds for 300.
 */
export function hitsBySpan(span: Span, bind: (value: number) => string): string[] {
  const at = (hour: number): string => bind(hour * PART_MS);
  const columns = [`count(*) FILTER (WHERE d.received_at < ${at(span.lowest + 1)})`];
  for (let hour = span.lowest + 1; hour < span.rest; hour++) {
    columns.push(
      `count(*) FILTER (WHERE d.received_at >= ${at(hour)} AND d.received_at < ${at(hour + 1)})`,
    );
  }
  columns.push(`count(*) FILTER (WHERE d.received_at >= ${at(span.rest)})`);
  return columns;
}

/** The hits of `hitsBySpan`'s columns, in their order, by part. */
export const hitsByPart = (hits: ReadonlyArray<number | string>, span: Span): ByPart =>
  hits.map((n, i) => [span.lowest + i, n] as const);

/**
 * The search narrowed to one hour's part (the lowest: everything before its end too), for
 * counting that part again; null when the search's own range leaves none of it.
 */
export function partRange(
  only: DeliveryPageFilter,
  part: number,
  span: Span,
): DeliveryPageFilter | null {
  const from = Math.max(only.from ?? -Infinity, part === span.lowest ? -Infinity : part * PART_MS);
  const to = Math.min(only.to ?? Infinity, (part + 1) * PART_MS - 1);
  if (from > to) return null;
  return { ...only, ...(from === -Infinity ? {} : { from }), to };
}

/** Figures by hour as figures by part. */
export const byParts = (rows: ByPart, span: Span): ByPart =>
  rows.map(([hour, n]) => [partOf(Number(hour), span), n] as const);

export interface Part {
  hits: number;
  entries: number;
}
export type Parts = ReadonlyMap<number, Part>;
/** A kept total: its parts, their span, and the mark it counted up to (the store's order). */
export interface KeptTotal {
  parts: Parts;
  span: Span;
  upTo: number;
}

/** Figures by part as a read answers them: `[part, n]` pairs. */
export type ByPart = ReadonlyArray<readonly [number, number | string]>;

const byPart = (rows: ByPart): Map<number, number> => {
  const map = new Map<number, number>();
  for (const [part, n] of rows) map.set(Number(part), (map.get(Number(part)) ?? 0) + Number(n));
  return map;
};

/**
 * The entries counted before, per part, as they are now: the log's entries less those written
 * since the count and those still queued for the index (never kept).
 */
export function countedNow(all: ByPart, fresh: ByPart, queued: ByPart): Map<number, number> {
  const now = byPart(all);
  for (const [part, n] of [...byPart(fresh), ...byPart(queued)]) {
    now.set(part, (now.get(part) ?? 0) - n);
  }
  for (const [part, n] of now) if (n === 0) now.delete(part);
  return now;
}

/** The parts whose counted entries are not those kept: some deleted since, so counted again. */
export function changedParts(parts: Parts, now: ReadonlyMap<number, number>): number[] {
  const keys = new Set([...parts.keys(), ...now.keys()]);
  return [...keys].filter((part) => (parts.get(part)?.entries ?? 0) !== (now.get(part) ?? 0));
}

/** Parts from a count: each part's hits among its counted entries. */
export function partsOf(hits: ByPart, now: ReadonlyMap<number, number>): Parts {
  const found = byPart(hits);
  const parts = new Map<number, Part>();
  for (const [part, entries] of now) parts.set(part, { hits: found.get(part) ?? 0, entries });
  return parts;
}

/** `parts` with some of them counted again (`recounted`; absent from `now`: all deleted). */
export function withRecounted(
  parts: Parts,
  recounted: ReadonlyMap<number, number>,
  now: ReadonlyMap<number, number>,
): Parts {
  const next = new Map(parts);
  for (const [part, hits] of recounted) {
    const entries = now.get(part) ?? 0;
    if (entries === 0) next.delete(part);
    else next.set(part, { hits, entries });
  }
  return next;
}

/** `parts` with the entries written since their count added, and the hits among them. */
export function withFresh(parts: Parts, hits: ByPart, fresh: ByPart): Parts {
  const next = new Map(parts);
  const found = byPart(hits);
  for (const [part, entries] of byPart(fresh)) {
    const was = next.get(part) ?? { hits: 0, entries: 0 };
    next.set(part, { hits: was.hits + (found.get(part) ?? 0), entries: was.entries + entries });
  }
  return next;
}

/** Hours counted apart from the rest at one read, at most (each one's entries one by one). */
const SPLIT_AT_ONCE = 2;

/**
 * The hours to count apart from the rest now, so that HOURS_APART hours from the oldest part on
 * are parts of their own again (the oldest went, pruned); a few at a time.
 */
export function hoursToSplit(parts: Parts, span: Span): number[] {
  // Nothing in the rest: nothing to split off (and the span would run on into the future).
  if (!parts.has(span.rest)) return [];
  const oldest = Math.min(span.rest, ...parts.keys());
  const hours: number[] = [];
  for (let hour = span.rest; hour < oldest + HOURS_APART && hours.length < SPLIT_AT_ONCE; hour++) {
    hours.push(hour);
  }
  return hours;
}

/** `parts` with `split` (each hour's hits and counted entries) counted apart from the rest. */
export function withSplit(
  parts: Parts,
  span: Span,
  split: ReadonlyMap<number, Part>,
): { parts: Parts; span: Span } {
  if (split.size === 0) return { parts, span };
  const next = new Map(parts);
  const rest = { ...(next.get(span.rest) ?? { hits: 0, entries: 0 }) };
  next.delete(span.rest);
  for (const [hour, part] of split) {
    rest.hits -= part.hits;
    rest.entries -= part.entries;
    if (part.entries > 0) next.set(hour, part);
  }
  const moved = { lowest: span.lowest, rest: Math.max(...split.keys()) + 1 };
  if (rest.entries > 0) next.set(moved.rest, rest);
  return { parts: next, span: moved };
}

export const hitsIn = (parts: Parts): number => {
  let n = 0;
  for (const part of parts.values()) n += part.hits;
  return n;
};
