import type { DeliveryPageFilter } from '../deliveries.js';
import { deliveriesCalls } from '../sql/deliveries.js';
import { deliveryFilter } from '../sql/delivery-filter.js';
import type { Queryable } from './client.js';
import { postgresDialect } from './dialect.js';
import { withParallelWorkers } from './parallel-read.js';
import { runCall } from './queries.js';

/**
 * A time range holding at most this many of the webhook's entries (by the other filters) is
 * counted row by row the first time (~30 µs an entry): cheaper than the whole log's trigram
 * candidates of a common text (~23 µs each, tens of thousands), dearer for a rare one.
 */
const ROW_BY_ROW_MOST = 8_000;
/**
 * A larger range is counted row by row too when its newest entries (this many, tested row by
 * row: ~12 ms) say the text is common enough that the whole log's trigram candidates outnumber
 * the range's entries by CANDIDATE_COST: q + label + last 24 h at 200,000 entries, 8,979 entries
 * row by row in 175–260 ms against 2.9 s for 78,000 candidates.
 */
const PROBE = 400;
/** A candidate's recheck and join against an entry tested row by row (~20 µs against ~30). */
const CANDIDATE_COST = 2 / 3;

/** When a first count with a time range reads its entries one by one (tests make them small). */
export interface RowByRowRule {
  most: number;
  probe: number;
}
const ROW_BY_ROW: RowByRowRule = { most: ROW_BY_ROW_MOST, probe: PROBE };

/** Searches whose totals are kept (the latest used): a list, its pages, a few filters beside. */
const KEPT_SEARCHES = 64;

interface Kept {
  /** The search's count among the webhook's entries indexed up to `upTo` (migration 18's order). */
  n: number;
  upTo: number;
  /** The webhook's entries indexed up to `upTo` then: a deletion among them shows as fewer. */
  entries: number;
}

/** One read's figures (counts: BIGINT as numbers, pool.ts; a sum: NUMERIC as a string). */
type Figure = number | string;
interface Counted {
  top: Figure | null;
  entries: Figure;
  queued_rows: Figure;
  queued_hits: Figure;
  hits: Figure;
  new_rows: Figure | null;
}

/**
 * A search's exact total (PRODUCT.md §14), counted once through the trigram indexes (with
 * parallel workers; a time range's entries one by one when they are few, or fewer than a common
 * text's candidates) and then kept in this relay's memory: the next list, page or refresh counts
 * only the entries indexed since, by their order (migration 18: numbers commit in order, so no entry can join below the
 * highest one a count saw), each tested row by row. Never kept:
 * - the entries still queued for the index: tested row by row at every read (few: the indexers
 *   keep up), so an entry is found and counted from its 202 on;
 * - a count once an entry it counted is gone (retention, a delete, from either relay): the
 *   webhook's entries (`delivery_counts`, kept by triggers in the deleting transaction) less
 *   those indexed since and those queued are then fewer than it counted among → counted again.
 * Each read is one statement, so one snapshot: the other relay's writes are in it whole or not
 * at all. Each relay keeps its own totals; both stay exact whoever writes.
 */
export function keptSearchTotals(q: Queryable, rule: RowByRowRule = ROW_BY_ROW) {
  const kept = new Map<string, Kept>();

  const unsearched = deliveriesCalls(postgresDialect).count;

  /** Whether a first count reads the range's entries one by one rather than the indexes. */
  const fewInRange = async (webhookUid: string, only: DeliveryPageFilter): Promise<boolean> => {
    if (only.from === undefined || only.q === undefined) return false;
    const { q: text, ...rest } = only;
    const inRange = await runCall(q, unsearched(webhookUid, rest));
    if (inRange <= rule.most) return true;
    // The range's newest entries tell how common the text is; the log's payloads (the planner's
    // figure: an estimate is enough here) how many candidates the indexes would then recheck.
    const { where, params } = deliveryFilter(postgresDialect, webhookUid, null, rest);
    const bind = (value: unknown): string => `$${params.push(value)}`;
    const holds = postgresDialect.holds(bind, text, '$1', {});
    const { rows } = await q.query<{ hits: Figure; n: Figure; log: number | null }>(
      `SELECT count(*) FILTER (WHERE ${holds}) AS hits, count(*) AS n,
         (SELECT reltuples FROM pg_class WHERE oid = 'payloads'::regclass) AS log
       FROM (SELECT * FROM deliveries d WHERE ${where} ORDER BY d.id DESC LIMIT ${rule.probe}) d`,
      params,
    );
    const probe = rows[0]!;
    const candidates = (Number(probe.hits) / Math.max(Number(probe.n), 1)) * (probe.log ?? 0);
    return inRange < candidates * CANDIDATE_COST;
  };

  const read = async (
    webhookUid: string,
    only: DeliveryPageFilter,
    since: Kept | undefined,
  ): Promise<Counted> => {
    // The filter tested row by row (a window), and for a first count through the indexes, its
    // parameters then appended after those of the indexed one (`$1`, the webhook, shared).
    const rowByRow = deliveryFilter(postgresDialect, webhookUid, null, only, {});
    const indexed =
      since === undefined && !(await fewInRange(webhookUid, only))
        ? deliveryFilter(postgresDialect, webhookUid, null, only)
        : null;
    const params = indexed?.params ?? [webhookUid];
    const shift = params.length - 1;
    const rowWhere = rowByRow.where.replace(/\$(\d+)/g, (_, n: string) =>
      n === '1' ? '$1' : `$${Number(n) + shift}`,
    );
    params.push(...rowByRow.params.slice(1));
    const upTo = since === undefined ? '' : `$${params.push(since.upTo)}`;
    const count = async (on: Queryable): Promise<Counted> => {
      const { rows } = await on.query<Counted>(
        `SELECT
         (SELECT max(search_order) FROM deliveries
          WHERE webhook_uid = $1 AND search_order IS NOT NULL) AS top,
         (SELECT coalesce(sum(n), 0) FROM delivery_counts WHERE webhook_uid = $1) AS entries,
         (SELECT count(*) FROM deliveries WHERE NOT indexed AND webhook_uid = $1) AS queued_rows,
         (SELECT count(*) FROM deliveries d WHERE NOT d.indexed AND ${rowWhere}) AS queued_hits,
         ${
           since === undefined
             ? `(SELECT count(*) FROM deliveries d
                 WHERE d.indexed AND ${indexed?.where ?? rowWhere}) AS hits,
                NULL AS new_rows`
             : `(SELECT count(*) FROM deliveries d
                 WHERE d.search_order > ${upTo} AND ${rowWhere}) AS hits,
                (SELECT count(*) FROM deliveries
                 WHERE webhook_uid = $1 AND search_order > ${upTo}) AS new_rows`
         }`,
        params,
      );
      return rows[0]!;
    };
    // Through the indexes, a common text's candidates are rechecked by parallel workers.
    return indexed === null ? count(q) : withParallelWorkers(q, count);
  };

  return async (webhookUid: string, only: DeliveryPageFilter): Promise<number> => {
    const key = JSON.stringify([webhookUid, only]);
    const before = kept.get(key);
    let counted = await read(webhookUid, only, before);
    let next: Kept | undefined;
    if (before !== undefined) {
      const newRows = Number(counted.new_rows);
      // Every entry counted before is still there: none deleted since.
      const whole =
        Number(counted.entries) - newRows - Number(counted.queued_rows) === before.entries;
      if (whole) {
        next = {
          n: before.n + Number(counted.hits),
          upTo: counted.top === null ? before.upTo : Number(counted.top),
          entries: before.entries + newRows,
        };
      } else {
        counted = await read(webhookUid, only, undefined);
      }
    }
    next ??= {
      n: Number(counted.hits),
      upTo: counted.top === null ? 0 : Number(counted.top),
      entries: Number(counted.entries) - Number(counted.queued_rows),
    };
    kept.delete(key);
    kept.set(key, next);
    if (kept.size > KEPT_SEARCHES) kept.delete(kept.keys().next().value!);
    return next.n + Number(counted.queued_hits);
  };
}
