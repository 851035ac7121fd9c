import type { DeliveryPageFilter } from '../deliveries.js';
import { deliveryFilter } from '../sql/delivery-filter.js';
import * as totals from '../search-total-parts.js';
import { Turns } from '../turns.js';
import { AskerGoneError } from '../asker-gone.js';
import { cancelledWhenGone } from './cancel-when-gone.js';
import type { Queryable } from './client.js';
import { postgresDialect } from './dialect.js';
import { withLocalSettings, withOneSnapshot } from './local-settings.js';
import { savedSearchTotals } from './saved-totals.js';
import { firstCountPlan, type FirstCountRule } from './first-count-plan.js';

/**
 * First counts through the indexes at once, per relay; the others wait their turn. Each holds a
 * pooled connection and, with its parallel workers, the database's CPU for seconds at a week's
 * scale: thirty distinct searches asked at once had held the whole pool, and every page of the
 * UI waited behind them. One whose asker has left by its turn is not run.
 */
const FIRST_COUNTS_AT_ONCE = 3;

/** The search's hits among the webhook's entries indexed up to `upTo` (migration 18's order). */
type Kept = totals.KeptTotal;

/** One read's figures (counts: BIGINT as numbers, pool.ts), and its figures by hour (JSON). */
type Figure = number | string;
interface Counted {
  top: Figure | null;
  queued_hits: Figure;
  /** The webhook's entries, those queued for the index, and those indexed past `upTo`. */
  entries: totals.ByPart;
  queued: totals.ByPart;
  fresh: totals.ByPart;
  /** The hits among the entries indexed (a first count) or among those past `upTo`. */
  hits: totals.ByPart;
}

/** `select` (columns `p`, the hour, and `n`) as `[hour, n]` pairs. */
const byHour = (select: string): string =>
  `(SELECT coalesce(json_agg(json_build_array(g.p, g.n)), '[]') FROM (${select}) g)`;
const HOUR = `/ ${totals.PART_MS}`;

/**
 * A search's exact total (PRODUCT.md §14), counted once through the trigram indexes (with
 * parallel workers; a time range's entries one by one when they are few, or fewer than a common
 * text's candidates) and then kept in this relay's memory: the next list, page or refresh counts
 * only the entries indexed since, by their order (migration 18: numbers commit in order, so no
 * entry can join below the highest one a count saw), each tested row by row. Never kept:
 * - the entries still queued for the index: tested row by row at every read (few: the indexers
 *   keep up), so an entry is found and counted from its 202 on;
 * - the part of a count whose entries are gone (retention, a delete, from either relay): the
 *   webhook's entries by hour (`delivery_counts`, kept by triggers in the deleting transaction)
 *   less those indexed since and those queued are then fewer than it counted among. The count is
 *   kept in parts (search-total-parts.ts): an hour of the oldest day that lost some is counted
 *   again row by row (retention prunes hourly: 1,041 → 78 ms at 200,000 entries), one that lost
 *   all is dropped, and the next hours are counted apart as the oldest go; a loss in the rest →
 *   counted again whole.
 * Kept totals are saved in the database too (saved-totals.ts): every relay, and one restarted,
 * counts on from them.
 * Each read is one snapshot (one statement, or a REPEATABLE READ transaction): the other relay's
 * writes are in it whole or not at all. Each relay keeps its own totals; both stay exact whoever
 * writes.
 */
export function keptSearchTotals(q: Queryable, rule?: FirstCountRule) {
  const kept = new Map<string, Kept>();
  const saved = savedSearchTotals(q);
  const firstCounts = new Turns(FIRST_COUNTS_AT_ONCE);

  const firstCount = firstCountPlan(q, rule);

  /** The filter tested row by row, its parameters from `$n` on (`$1`, the webhook, shared). */
  const rowsFrom = (webhookUid: string, only: DeliveryPageFilter, params: unknown[]): string => {
    const rowByRow = deliveryFilter(postgresDialect, webhookUid, null, only, {});
    const shift = params.length - 1;
    params.push(...rowByRow.params.slice(1));
    return rowByRow.where.replace(/\$(\d+)/g, (_, n: string) =>
      n === '1' ? '$1' : `$${Number(n) + shift}`,
    );
  };

  /** The hour of the webhook's oldest entry (null: none), where a first count's parts start. */
  const oldestHour = async (on: Queryable, webhookUid: string): Promise<number | null> => {
    const { rows } = await on.query<{ hour: Figure | null }>(
      'SELECT min(minute) / 60 AS hour FROM delivery_counts WHERE webhook_uid = $1',
      [webhookUid],
    );
    return rows[0]!.hour === null ? null : Number(rows[0]!.hour);
  };

  /**
   * One statement (one snapshot): the webhook's entries by hour, those queued, and the hits among
   * the indexed entries (a first count, by the parts of `span`) or among those past `since.upTo`.
   */
  const figures = async (
    on: Queryable,
    webhookUid: string,
    only: DeliveryPageFilter,
    since: { upTo: number } | { first: totals.Span },
    indexed: { where: string; params: unknown[] } | null,
  ): Promise<Counted> => {
    const params = indexed?.params ?? [webhookUid];
    const rowWhere = rowsFrom(webhookUid, only, params);
    const bind = (value: unknown): string => `$${params.push(value)}`;
    const upTo = 'upTo' in since ? bind(since.upTo) : '';
    const { rows } = await on.query<Counted>(
      `SELECT
       (SELECT max(search_order) FROM deliveries
        WHERE webhook_uid = $1 AND search_order IS NOT NULL) AS top,
       ${byHour(`SELECT minute / 60 AS p, sum(n) AS n FROM delivery_counts
                 WHERE webhook_uid = $1 GROUP BY 1`)} AS entries,
       ${byHour(`SELECT received_at ${HOUR} AS p, count(*) AS n FROM deliveries
                 WHERE NOT indexed AND webhook_uid = $1 GROUP BY 1`)} AS queued,
       (SELECT count(*) FROM deliveries d WHERE NOT d.indexed AND ${rowWhere}) AS queued_hits,
       ${
         'first' in since
           ? `(SELECT json_build_array(${totals.hitsBySpan(since.first, bind).join(', ')}) FROM deliveries d
               WHERE d.indexed AND ${indexed?.where ?? rowWhere}) AS hits,
              '[]'::json AS fresh`
           : `${byHour(`SELECT d.received_at ${HOUR} AS p, count(*) AS n FROM deliveries d
                        WHERE d.search_order > ${upTo} AND ${rowWhere} GROUP BY 1`)} AS hits,
              ${byHour(`SELECT received_at ${HOUR} AS p, count(*) AS n FROM deliveries
                        WHERE webhook_uid = $1 AND search_order > ${upTo} GROUP BY 1`)} AS fresh`
       }`,
      params,
    );
    const counted = rows[0]!;
    if (!('first' in since)) return counted;
    return {
      ...counted,
      hits: totals.hitsByPart(counted.hits as unknown as number[], since.first),
    };
  };

  /**
   * A first count, through the indexes (cancelled when its asker leaves) or row by row, in turns
   * with the relay's other first counts, its probes included: thirty asked at once had each
   * probed on a pooled connection of its own before their turns, and the UI's first page waited
   * 1.3–1.7 s for a connection and the database meanwhile.
   */
  const first = (
    webhookUid: string,
    only: DeliveryPageFilter,
    gone: AbortSignal | undefined,
  ): Promise<Kept & { queuedHits: number }> =>
    firstCounts.run(async () => {
      if (gone?.aborted) throw new AskerGoneError();
      const how = await firstCount(webhookUid, only);
      const indexed = how === 'rows' ? null : deliveryFilter(how.dialect, webhookUid, null, only);
      // Any first hour is exact (the first part holds all before it); the webhook's oldest
      // makes the most of the hours kept apart.
      let span = totals.spanFrom(0);
      const count = async (on: Queryable): Promise<Counted> => {
        span = totals.spanFrom((await oldestHour(on, webhookUid)) ?? 0);
        return figures(on, webhookUid, only, { first: span }, indexed);
      };
      const counted =
        how === 'rows'
          ? await count(q)
          : // Through the indexes: seconds for a common text, stopped when its asker leaves.
            await withLocalSettings(q, how.settings, (on) =>
              gone === undefined || on === q ? count(on) : cancelledWhenGone(q, on, gone, count),
            );
      const now = totals.countedNow(
        totals.byParts(counted.entries, span),
        [],
        totals.byParts(counted.queued, span),
      );
      return {
        parts: totals.partsOf(counted.hits, now),
        span,
        upTo: counted.top === null ? 0 : Number(counted.top),
        queuedHits: Number(counted.queued_hits),
      };
    });

  /** The hits among the entries counted before in an hour's `part`, tested one by one. */
  const recount = async (
    on: Queryable,
    webhookUid: string,
    only: DeliveryPageFilter,
    upTo: number,
    part: number,
    span: totals.Span,
  ): Promise<number> => {
    const range = totals.partRange(only, part, span);
    if (range === null) return 0;
    const params: unknown[] = [webhookUid];
    const rowWhere = rowsFrom(webhookUid, range, params);
    const { rows } = await on.query<{ n: Figure }>(
      `SELECT count(*) AS n FROM deliveries d
       WHERE d.indexed AND (d.search_order IS NULL OR d.search_order <= $${params.push(upTo)})
         AND ${rowWhere}`,
      params,
    );
    return Number(rows[0]!.n);
  };

  /**
   * Counted on from `before` (in one snapshot), its hours that lost entries counted again; null
   * when the rest lost some: a first count then.
   */
  const countedOn = async (
    on: Queryable,
    webhookUid: string,
    only: DeliveryPageFilter,
    before: Kept,
  ): Promise<(Kept & { queuedHits: number }) | null> => {
    const counted = await figures(on, webhookUid, only, { upTo: before.upTo }, null);
    const { span } = before;
    const fresh = totals.byParts(counted.fresh, span);
    const now = totals.countedNow(
      totals.byParts(counted.entries, span),
      fresh,
      totals.byParts(counted.queued, span),
    );
    const changed = totals.changedParts(before.parts, now);
    let parts = before.parts;
    if (changed.length > 0) {
      if (changed.includes(span.rest)) return null;
      const recounted = new Map<number, number>();
      for (const part of changed) {
        const gone = (now.get(part) ?? 0) === 0;
        recounted.set(
          part,
          gone ? 0 : await recount(on, webhookUid, only, before.upTo, part, span),
        );
      }
      parts = totals.withRecounted(parts, recounted, now);
    }
    parts = totals.withFresh(parts, totals.byParts(counted.hits, span), fresh);
    const upTo = counted.top === null ? before.upTo : Number(counted.top);
    // The next hours apart from the rest, as the oldest go: each indexed entry of them counted.
    const indexed = totals.countedNow(counted.entries, [], counted.queued);
    const split = new Map<number, totals.Part>();
    for (const hour of totals.hoursToSplit(parts, span)) {
      const entries = indexed.get(hour) ?? 0;
      const hits = entries > 0 ? await recount(on, webhookUid, only, upTo, hour, span) : 0;
      split.set(hour, { hits, entries });
    }
    return {
      ...totals.withSplit(parts, span, split),
      upTo,
      queuedHits: Number(counted.queued_hits),
    };
  };

  const total = async (
    key: string,
    webhookUid: string,
    only: DeliveryPageFilter,
    gone: AbortSignal | undefined,
  ) => {
    if (gone?.aborted) throw new AskerGoneError();
    const before = kept.get(key) ?? (await saved.load(key));
    const on =
      before === undefined
        ? null
        : await withOneSnapshot(q, (snapshot) => countedOn(snapshot, webhookUid, only, before));
    const { queuedHits, ...next } = on ?? (await first(webhookUid, only, gone));
    totals.keepLatest(kept, key, next);
    await saved.save(key, next, on === null);
    return totals.hitsIn(next.parts) + queuedHits;
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
    const key = totals.searchKey(webhookUid, only);
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
