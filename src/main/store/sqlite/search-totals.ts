import type { DeliveryPageFilter } from '../deliveries.js';
import * as totals from '../search-total-parts.js';
import type { SearchWindow } from '../sql/delivery-filter.js';
import type { Db } from './db.js';
import type { SavedTotals } from './saved-totals.js';
import type { SavedTotal } from '../saved-totals.js';
import { timeWindow } from './search-window.js';

interface Kept {
  /** The search's hits among the webhook's entries up to `upTo` (rowid), all indexed then. */
  parts: totals.Parts;
  span: totals.Span;
  upTo: number;
  /** The ID of the log's last entry at or before `upTo`: changed or gone if its rowid was reused. */
  last: string | null;
}

type Count<T> = (webhookUid: string, only: DeliveryPageFilter, window?: SearchWindow) => T;

/**
 * A common text's exact total (PRODUCT.md §14), counted once and then kept: the next list, page
 * or refresh counts only the entries past the rowid it counted up to (rowids grow with each
 * entry; the index seeks to the hits past it). Kept in parts (search-total-parts.ts), each
 * exact while it stays so:
 * - an entry deleted (retention, a delete) among those counted: the webhook's entries by hour
 *   (`delivery_counts`, kept by triggers in the same transaction as the log) less those written
 *   since are then fewer than a part counted among → an hour of the oldest day counted again,
 *   dropped if none is left, the next hours counted apart as the oldest go; a loss in the rest
 *   → counted again whole;
 * - an entry queued for the index again among those counted (its payload dropped), or the rowid
 *   it counted up to given to a new entry (the log's newest entries deleted) → counted again
 *   whole. Entries still queued are never kept: the queue's scan folds ASCII case only, the
 *   index all of Unicode, so such an entry is counted again each time until it is indexed.
 * Each total is one read transaction (one snapshot). A time range also narrows what is counted
 * to the rowids received in it (search-window.ts). Totals are saved too (`saved`, on the totals'
 * read thread): counted on from after the thread's idle close or a restart, each checked as
 * above.
 */
export function keptSearchTotals(
  db: Db,
  count: Count<number>,
  countByParts: (
    webhookUid: string,
    only: DeliveryPageFilter,
    span: totals.Span,
    window?: SearchWindow,
  ) => totals.ByPart,
  saved?: SavedTotals,
) {
  const kept = new Map<string, Kept>();
  const inTime = timeWindow(db);
  const marks = db.prepare<[], { top: number | null; queued: number | null }>(
    `SELECT (SELECT max(rowid) FROM deliveries) AS top,
       (SELECT min(delivery_rowid) FROM delivery_search_pending) AS queued`,
  );
  const entriesByHour = db
    .prepare<[string], [number, number]>(
      `SELECT minute / 60, sum(n) FROM delivery_counts WHERE webhook_uid = ? GROUP BY 1`,
    )
    .raw();
  const oldestHour = db
    .prepare<[string], number | null>(
      'SELECT min(minute) / 60 FROM delivery_counts WHERE webhook_uid = ?',
    )
    .pluck();
  // Without AUTOINCREMENT SQLite gives a new entry the highest rowid + 1: once the log's newest
  // entries are deleted, their rowids are given again, under the mark.
  const lastAt = db
    .prepare<[number], string>(
      'SELECT id FROM deliveries WHERE rowid <= ? ORDER BY rowid DESC LIMIT 1',
    )
    .pluck();
  // The webhook's entries past `after` (rowid) by hour: up to `upTo`, and past it.
  const writtenByHour = db
    .prepare<{ after: number; upTo: number; uid: string }, [number, number, number]>(
      `SELECT received_at / ${totals.PART_MS}, sum(rowid <= @upTo), sum(rowid > @upTo)
       FROM deliveries WHERE rowid > @after AND +webhook_uid = @uid GROUP BY 1`,
    )
    .raw();
  const written = (uid: string, after: number, upTo: number) => {
    const rows = writtenByHour.all({ after, upTo, uid });
    return {
      upTo: rows.map(([hour, n]) => [hour, n] as const),
      past: rows.map(([hour, , n]) => [hour, n] as const),
    };
  };

  const total = (webhookUid: string, only: DeliveryPageFilter): number => {
    const time = inTime(only);
    if (time === 'empty') return 0;
    const { top, queued } = marks.get()!;
    if (top === null) return 0;
    // Kept up to the entry before the first still queued: all indexed.
    const upTo = queued === null ? top : Math.min(top, queued - 1);
    const within = <T>(read: Count<T>, none: T, from?: number, to?: number, range = only): T =>
      readWithin((window) => read(webhookUid, range, window), none, time, from, to);
    const all = entriesByHour.all(webhookUid);

    /** The hits among the entries up to `to` (rowid) in an hour's part, tested one by one. */
    const hourHits = (part: number, span: totals.Span, to: number): number => {
      const range = totals.partRange(only, part, span);
      if (range === null) return 0;
      // The hour's rowids (the oldest part's: all before its end), not the whole index's hits.
      const rowids = inTime({ from: range.from ?? 0, to: range.to! });
      if (rowids === 'empty') return 0;
      return readWithin((window) => count(webhookUid, range, window), 0, rowids, undefined, to);
    };

    /** Counted on from `before`, the hours that lost entries counted again; null: counted whole. */
    const countedOn = (before: Kept): { parts: totals.Parts; span: totals.Span } | null => {
      const { span } = before;
      const since = written(webhookUid, before.upTo, upTo);
      const now = totals.countedNow(
        totals.byParts(all, span),
        totals.byParts([...since.upTo, ...since.past], span),
        [],
      );
      const changed = totals.changedParts(before.parts, now);
      if (changed.includes(span.rest)) return null;
      const recounted = new Map<number, number>();
      for (const part of changed) {
        recounted.set(part, (now.get(part) ?? 0) > 0 ? hourHits(part, span, before.upTo) : 0);
      }
      let parts = totals.withRecounted(before.parts, recounted, now);
      if (upTo > before.upTo) {
        const hits = within(
          (uid, range, window) => countByParts(uid, range, span, window),
          [],
          before.upTo + 1,
          upTo,
        );
        const fresh = totals.byParts(since.upTo, span);
        parts = totals.withFresh(parts, hits, fresh);
      }
      // The next hours apart from the rest, as the oldest go: each entry of them counted.
      const counted = totals.countedNow(all, since.past, []);
      const split = new Map<number, totals.Part>();
      for (const hour of totals.hoursToSplit(parts, span)) {
        const entries = counted.get(hour) ?? 0;
        split.set(hour, { hits: entries > 0 ? hourHits(hour, span, upTo) : 0, entries });
      }
      return totals.withSplit(parts, span, split);
    };

    const countedWhole = (): { parts: totals.Parts; span: totals.Span } => {
      const span = totals.spanFrom(oldestHour.get(webhookUid) ?? 0);
      const hits = within(
        (uid, range, window) => countByParts(uid, range, span, window),
        [],
        undefined,
        upTo,
      );
      const now = totals.countedNow(
        totals.byParts(all, span),
        totals.byParts(written(webhookUid, upTo, upTo).past, span),
        [],
      );
      return { parts: totals.partsOf(hits, now), span };
    };

    const key = totals.searchKey(webhookUid, only);
    const before = kept.get(key) ?? keptFrom(saved?.load(key));
    const valid =
      before !== undefined &&
      upTo >= before.upTo &&
      (lastAt.get(before.upTo) ?? null) === before.last;
    const on = valid ? countedOn(before) : null;
    const { parts, span } = on ?? countedWhole();
    const next = { parts, span, upTo, last: lastAt.get(upTo) ?? null };
    totals.keepLatest(kept, key, next);
    saved?.save(key, next, on === null);
    // The entries past the kept mark: newly written, or still queued for the index.
    return totals.hitsIn(parts) + (upTo < top ? within(count, 0, upTo + 1, undefined) : 0);
  };

  return (webhookUid: string, only: DeliveryPageFilter): number =>
    db.transaction(() => total(webhookUid, only)).deferred();
}

/** A saved total as kept; one saved without the log's last entry is not (rowids are reused). */
const keptFrom = (saved: SavedTotal | undefined): Kept | undefined =>
  saved?.last === undefined ? undefined : { ...saved, last: saved.last };

/** `read` of the rowids in [from, to] (undefined: open), within the time range's too. */
function readWithin<T>(
  read: (window?: SearchWindow) => T,
  none: T,
  time: SearchWindow | null,
  from: number | undefined,
  to: number | undefined,
): T {
  const lo = Math.max(from ?? -Infinity, time?.fromRowid ?? -Infinity);
  const hi = Math.min(to ?? Infinity, time?.toRowid ?? Infinity);
  if (lo > hi) return none;
  return read({
    ...(lo === -Infinity ? {} : { fromRowid: lo }),
    ...(hi === Infinity ? {} : { toRowid: hi }),
  });
}
