import {
  RECOVERED_COLUMN,
  toRecord,
  type DeliveriesRepository,
  type DeliveryPageFilter,
  type DeliveryRecord,
  type DeliveryRow,
} from '../deliveries.js';
import {
  activityByMinute,
  countByMinute,
  countedByMinute,
  volumeByMinute,
} from './delivery-counts.js';
import { deliveryFilter, type DeliveryDialect, type SearchWindow } from './delivery-filter.js';
import { PART_MS, type ByPart, type Span } from '../search-total-parts.js';
import { mapCall, row, rows, type Call, type Calls } from './query.js';

const count = (r?: { n: number }): number => Number(r?.n ?? 0);

type Page = { items: DeliveryRecord[]; nextBefore: string | null };

/** An entry with its runs' IDs and whether it was recovered, as every read of one answers it. */
const selectEntries = (dialect: DeliveryDialect): string => `
    SELECT d.*, (SELECT ${dialect.commaList('r.id')} FROM runs r WHERE r.delivery_id = d.id) AS run_ids,
      ${RECOVERED_COLUMN}
    FROM deliveries d`;

/**
 * A page of the log, newest first; `before` is the ID of the last row of the previous page.
 * `window`: a search reads only that part of the log (SQLite: sqlite/search-window.ts).
 */
export function pageCall(
  dialect: DeliveryDialect,
  webhookUid: string,
  limit: number,
  before: string | null,
  only: DeliveryPageFilter,
  window?: SearchWindow,
): Call<Page> {
  const { where, params } = deliveryFilter(dialect, webhookUid, before, only, window);
  // One row more than the page: whether there is a next one.
  const newest = `ORDER BY d.id DESC LIMIT $${params.push(limit + 1)}`;
  const sql = dialect.pageIdsFirst
    ? `${selectEntries(dialect)} WHERE d.id IN (SELECT d.id FROM deliveries d WHERE ${where} ${newest})
       ORDER BY d.id DESC`
    : `${selectEntries(dialect)} WHERE ${where} ${newest}`;
  const all = rows(sql, params, toRecord);
  return mapCall(all, (records) => ({
    items: records.slice(0, limit),
    nextBefore: records.length > limit ? records[limit - 1]!.id : null,
  }));
}

/** How many entries match, counted; `window` as for `pageCall`. */
export function countCall(
  dialect: DeliveryDialect,
  webhookUid: string,
  only: DeliveryPageFilter,
  window?: SearchWindow,
): Call<number> {
  const { where, params } = deliveryFilter(dialect, webhookUid, null, only, window);
  return row(`SELECT count(*) AS n FROM deliveries d WHERE ${where}`, params, count);
}

/**
 * How many entries match in each part of `span` (search-total-parts.ts), `[part, n]` by part.
 * Each entry's part is worked out once and the parts grouped: as one `count(*) FILTER` column a
 * part, each entry was tested against all 25 (SQLite, a million entries: 345–408 ms against
 * 255–315 ms, the plain count 215–282). PostgreSQL's first count reads its parts as those columns
 * in a statement of its own (postgres/search-totals.ts): grouped, its planner rescanned.
 */
export function countByPartsCall(
  dialect: DeliveryDialect,
  webhookUid: string,
  only: DeliveryPageFilter,
  span: Span,
  window?: SearchWindow,
): Call<ByPart> {
  const { where, params } = deliveryFilter(dialect, webhookUid, null, only, window);
  const at = (hour: number): string => `$${params.push(hour * PART_MS)}`;
  const part = `CASE WHEN d.received_at < ${at(span.lowest + 1)} THEN ${span.lowest}
    WHEN d.received_at >= ${at(span.rest)} THEN ${span.rest}
    ELSE d.received_at / ${PART_MS} END`;
  return rows(
    `SELECT ${part} AS part, count(*) AS n FROM deliveries d WHERE ${where} GROUP BY 1`,
    params,
    (r: { part: number | string; n: number | string }) => [Number(r.part), Number(r.n)] as const,
  );
}

/** The read side of the delivery log, for both stores; writes go through the batch store only. */
export function deliveriesCalls(dialect: DeliveryDialect): Calls<DeliveriesRepository> {
  const SELECT = selectEntries(dialect);
  return {
    /** Newest first; `before` is the ID of the last row of the previous page. */
    page: (webhookUid, limit, before, only = {}) =>
      pageCall(dialect, webhookUid, limit, before, only),
    /** How many entries match, on every page (no `before`); labels and times by the minute. */
    count: (webhookUid, only = {}) => {
      if (countedByMinute(only)) return countByMinute(dialect, webhookUid, only);
      return countCall(dialect, webhookUid, only);
    },
    get: (id) =>
      row(`${SELECT} WHERE d.id = $1`, [id], (r?: DeliveryRow) => (r ? toRecord(r) : null)),
    payload: (id) =>
      row(
        'SELECT body FROM payloads WHERE delivery_id = $1',
        [id],
        (r?: { body: Buffer }) => r?.body ?? null,
      ),
    /** Null for entries written before request contexts were kept ("not recorded"). */
    requestContext: (id) =>
      row(
        'SELECT method, path, headers FROM request_contexts WHERE delivery_id = $1',
        [id],
        (r?: { method: string; path: string; headers: string }) =>
          r
            ? {
                method: r.method,
                path: r.path,
                headers: JSON.parse(r.headers) as Array<[string, string]>,
              }
            : null,
      ),
    countSince: (since) =>
      row('SELECT count(*) AS n FROM deliveries WHERE received_at >= $1', [since], count),
    /** Counts by webhook, hour (0 = the hour starting at `since`) and label, for a factory. */
    activitySince: (factoryId, since) => activityByMinute(factoryId, since),
    /** Counts by bucket (0 = the one starting at `since`) and label, for one webhook. */
    volumeSince: (webhookUid, since, bucketMs) => volumeByMinute(webhookUid, since, bucketMs),
    latestAt: (webhookUid) =>
      row(
        'SELECT received_at FROM deliveries WHERE webhook_uid = $1 ORDER BY id DESC LIMIT 1',
        [webhookUid],
        (r?: { received_at: number }) => r?.received_at ?? null,
      ),
  };
}
