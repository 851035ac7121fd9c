import type { DeliveryPageFilter } from '../deliveries.js';
import { deliveriesCalls } from '../sql/deliveries.js';
import { deliveryFilter } from '../sql/delivery-filter.js';
import { Turns } from '../turns.js';
import { AskerGoneError } from '../asker-gone.js';
import { cancelledWhenGone } from './cancel-when-gone.js';
import type { Queryable } from './client.js';
import { postgresDialect, postgresParallelDialect } from './dialect.js';
import { withLocalSettings } from './local-settings.js';
import { runCall } from './queries.js';

/**
 * A time range holding at most this many of the webhook's entries (by the other filters) is
 * counted row by row the first time (~30 µs an entry): cheaper than the whole log's trigram
 * candidates of a common text (~23 µs each, tens of thousands), dearer for a rare one.
 */
const ROW_BY_ROW_MOST = 8_000;
/**
 * A first count's newest entries (this many, tested row by row: ~12 ms) tell how common its text
 * is, and so how many trigram candidates the indexes would recheck: a larger range is counted
 * row by row too when they outnumber its entries by CANDIDATE_COST (q + label + last 24 h at
 * 200,000 entries: 8,979 entries row by row in 175–260 ms against 2.9 s for 78,000 candidates).
 */
const PROBE = 400;
/** A candidate's recheck and join against an entry tested row by row (~20 µs against ~30). */
const CANDIDATE_COST = 2 / 3;
/**
 * From this many candidates the hits are joined with the webhook's entries by a hash, not one
 * index probe each (the planner's choice on an estimate of ~12): Tromsø's 78,225 candidates
 * 1.65–1.85 s against 2.27–2.44 s; a rare text's 35–70 ms would take 80–120 ms.
 */
const HASHED_FROM = 10_000;

/** How a first count is read (tests make the figures small). */
export interface FirstCountRule {
  /** A time range with at most this many entries: row by row, without a probe. */
  most: number;
  probe: number;
  hashedFrom: number;
}
const FIRST_COUNT: FirstCountRule = {
  most: ROW_BY_ROW_MOST,
  probe: PROBE,
  hashedFrom: HASHED_FROM,
};

/** Through the indexes, a common text's candidates are rechecked by parallel workers. */
const PARALLEL = { parallel_setup_cost: '0', min_parallel_table_scan_size: '0' };
const HASHED = { ...PARALLEL, enable_nestloop: 'off' };

/**
 * First counts through the indexes at once, per relay; the others wait their turn. Each holds a
 * pooled connection and, with its parallel workers, the database's CPU for seconds at a week's
 * scale: thirty distinct searches asked at once had held the whole pool, and every page of the
 * UI waited behind them. One whose asker has left by its turn is not run.
 */
const FIRST_COUNTS_AT_ONCE = 3;

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
 * only the entries indexed since, by their order (migration 18: numbers commit in order, so no
 * entry can join below the highest one a count saw), each tested row by row. Never kept:
 * - the entries still queued for the index: tested row by row at every read (few: the indexers
 *   keep up), so an entry is found and counted from its 202 on;
 * - a count once an entry it counted is gone (retention, a delete, from either relay): the
 *   webhook's entries (`delivery_counts`, kept by triggers in the deleting transaction) less
 *   those indexed since and those queued are then fewer than it counted among → counted again.
 * Each read is one statement, so one snapshot: the other relay's writes are in it whole or not
 * at all. Each relay keeps its own totals; both stay exact whoever writes.
 */
export function keptSearchTotals(q: Queryable, rule: FirstCountRule = FIRST_COUNT) {
  const kept = new Map<string, Kept>();
  const firstCounts = new Turns(FIRST_COUNTS_AT_ONCE);

  const unsearched = deliveriesCalls(postgresDialect).count;

  /** How a first count reads: the range's entries one by one, or the indexes, joined how. */
  const firstCount = async (
    webhookUid: string,
    only: DeliveryPageFilter,
  ): Promise<'rows' | typeof PARALLEL | typeof HASHED> => {
    const { q: text, ...rest } = only;
    if (text === undefined) return PARALLEL;
    const inRange = only.from === undefined ? null : await runCall(q, unsearched(webhookUid, rest));
    if (inRange !== null && inRange <= rule.most) return 'rows';
    // The newest entries tell how common the text is; the log's payloads (the planner's figure:
    // an estimate is enough here) how many candidates the indexes would then recheck.
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
    if (inRange !== null && inRange < candidates * CANDIDATE_COST) return 'rows';
    return candidates >= rule.hashedFrom ? HASHED : PARALLEL;
  };

  const read = async (
    webhookUid: string,
    only: DeliveryPageFilter,
    since: Kept | undefined,
    gone: AbortSignal | undefined,
  ): Promise<Counted> => {
    // The filter tested row by row (a window), and for a first count through the indexes, its
    // parameters then appended after those of the indexed one (`$1`, the webhook, shared).
    const rowByRow = deliveryFilter(postgresDialect, webhookUid, null, only, {});
    const how = since === undefined ? await firstCount(webhookUid, only) : 'rows';
    const indexed =
      how === 'rows' ? null : deliveryFilter(postgresParallelDialect, webhookUid, null, only);
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
    if (how === 'rows') return count(q);
    // Through the indexes: seconds for a common text, stopped when its asker leaves.
    return firstCounts.run(() => {
      if (gone?.aborted) throw new AskerGoneError();
      return withLocalSettings(q, how, (on) =>
        gone === undefined || on === q ? count(on) : cancelledWhenGone(q, on, gone, count),
      );
    });
  };

  const total = async (
    key: string,
    webhookUid: string,
    only: DeliveryPageFilter,
    gone: AbortSignal | undefined,
  ) => {
    if (gone?.aborted) throw new AskerGoneError();
    const before = kept.get(key);
    let counted = await read(webhookUid, only, before, gone);
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
        counted = await read(webhookUid, only, undefined, gone);
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

  /**
   * One count of a search at a time: an ask made while it is counted waits for that count and
   * then counts on from its total. Each ask had been a first count of its own, on a connection of
   * its own: the UI asks again at each live entry, and a common text's first count takes seconds
   * at a week's scale.
   */
  const counting = new Map<string, Promise<number>>();
  return async (
    webhookUid: string,
    only: DeliveryPageFilter,
    gone?: AbortSignal,
  ): Promise<number> => {
    const key = JSON.stringify([webhookUid, only]);
    const ahead = counting.get(key)?.catch(() => undefined);
    const mine = ahead
      ? ahead.then(() => total(key, webhookUid, only, gone))
      : total(key, webhookUid, only, gone);
    counting.set(key, mine);
    try {
      return await mine;
    } finally {
      if (counting.get(key) === mine) counting.delete(key);
    }
  };
}
