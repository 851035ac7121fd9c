import type { DeliveryPageFilter } from '../deliveries.js';
import type { SearchWindow } from '../sql/delivery-filter.js';
import type { Db } from './db.js';
import { timeWindow } from './search-window.js';

/** Searches whose totals are kept (the latest used): a list, its pages, a few filters beside. */
const KEPT_SEARCHES = 64;

interface Kept {
  /** The search's count among the webhook's entries up to `upTo` (rowid), all indexed then. */
  n: number;
  upTo: number;
  /** The webhook's entries then (delivery_counts): a deletion up to `upTo` shows as fewer. */
  entries: number;
  /** The ID of the log's last entry at or before `upTo`: changed or gone if its rowid was reused. */
  last: string | null;
}

/**
 * A common text's exact total (PRODUCT.md §14), counted once and then kept: the next list, page
 * or refresh counts only the entries past the rowid it counted up to (rowids grow with each
 * entry; the index seeks to the hits past it). Kept only while it stays exact:
 * - an entry deleted (retention, a delete) among those counted: the webhook then holds fewer
 *   entries than the kept count of them plus the entries written since (`delivery_counts`, kept by
 *   triggers in the same transaction as the log) → counted again;
 * - an entry queued for the index again among those counted (its payload dropped) → counted
 *   again;
 * - the rowid it counted up to given to a new entry (the log's newest entries deleted) → counted
 *   again. Entries still queued are never kept: the queue's scan folds ASCII case only, the index
 *   all of Unicode, so such an entry is counted again each time until it is indexed.
 * Each total is one read transaction (one snapshot). A time range also narrows what is counted
 * to the rowids received in it (search-window.ts).
 */
export function keptSearchTotals(
  db: Db,
  count: (webhookUid: string, only: DeliveryPageFilter, window?: SearchWindow) => number,
) {
  const kept = new Map<string, Kept>();
  const inTime = timeWindow(db);
  const marks = db.prepare<[], { top: number | null; queued: number | null }>(
    `SELECT (SELECT max(rowid) FROM deliveries) AS top,
       (SELECT min(delivery_rowid) FROM delivery_search_pending) AS queued`,
  );
  const entries = db
    .prepare<[string], number>(
      'SELECT coalesce(sum(n), 0) FROM delivery_counts WHERE webhook_uid = ?',
    )
    .pluck();
  // Without AUTOINCREMENT SQLite gives a new entry the highest rowid + 1: once the log's newest
  // entries are deleted, their rowids are given again, under the mark.
  const lastAt = db
    .prepare<[number], string>(
      'SELECT id FROM deliveries WHERE rowid <= ? ORDER BY rowid DESC LIMIT 1',
    )
    .pluck();
  const writtenSince = db
    .prepare<[number, string], number>(
      'SELECT count(*) FROM deliveries WHERE rowid > ? AND +webhook_uid = ?',
    )
    .pluck();

  const total = (webhookUid: string, only: DeliveryPageFilter): number => {
    const countIn = (window?: SearchWindow): number => count(webhookUid, only, window);
    const time = inTime(only);
    if (time === 'empty') return 0;
    const { top, queued } = marks.get()!;
    if (top === null) return 0;
    // Kept up to the entry before the first still queued: all indexed.
    const upTo = queued === null ? top : Math.min(top, queued - 1);
    const now = entries.get(webhookUid)!;
    const key = JSON.stringify([webhookUid, only]);
    const before = kept.get(key);
    const valid =
      before !== undefined &&
      upTo >= before.upTo &&
      (lastAt.get(before.upTo) ?? null) === before.last &&
      before.entries + writtenSince.get(before.upTo, webhookUid)! === now;
    const counted = valid
      ? before.n + countWithin(countIn, time, before.upTo + 1, upTo)
      : countWithin(countIn, time, undefined, upTo);
    kept.delete(key);
    kept.set(key, { n: counted, upTo, entries: now, last: lastAt.get(upTo) ?? null });
    if (kept.size > KEPT_SEARCHES) kept.delete(kept.keys().next().value!);
    // The entries past the kept mark: newly written, or still queued for the index.
    return counted + (upTo < top ? countWithin(countIn, time, upTo + 1, undefined) : 0);
  };

  return (webhookUid: string, only: DeliveryPageFilter): number =>
    db.transaction(() => total(webhookUid, only)).deferred();
}

/** `count` of the rowids in [from, to] (undefined: open), within the time range's too. */
function countWithin(
  count: (window?: SearchWindow) => number,
  time: SearchWindow | null,
  from: number | undefined,
  to: number | undefined,
): number {
  const lo = Math.max(from ?? -Infinity, time?.fromRowid ?? -Infinity);
  const hi = Math.min(to ?? Infinity, time?.toRowid ?? Infinity);
  if (lo > hi) return 0;
  return count({
    ...(lo === -Infinity ? {} : { fromRowid: lo }),
    ...(hi === Infinity ? {} : { toRowid: hi }),
  });
}
