import type { DeliveryLabel } from '../../../shared/labels.js';
import type { DeliveryPageFilter } from '../deliveries.js';
import type { Bind, DeliveryDialect } from './delivery-filter.js';
import { row, rows, type Call } from './query.js';

const MINUTE_MS = 60_000;

/**
 * Whether `delivery_counts` (schema version 15) answers a count with this filter: labels and a
 * time range only. Identity, event type and text are not counted per minute: those still count
 * entries.
 */
export const countedByMinute = (only: DeliveryPageFilter): boolean =>
  only.identity === undefined && only.eventType === undefined && only.q === undefined;

/** The half-open range [from, to] covers, split into whole minutes and the ms left at its edges. */
function split(
  from: number | undefined,
  to: number | undefined,
): { minutes: [number | undefined, number | undefined] | null; edges: Array<[number?, number?]> } {
  const lo = from;
  const hi = to === undefined ? undefined : to + 1;
  const firstMinute = lo === undefined ? undefined : Math.ceil(lo / MINUTE_MS);
  const endMinute = hi === undefined ? undefined : Math.floor(hi / MINUTE_MS);
  if (firstMinute !== undefined && endMinute !== undefined && firstMinute >= endMinute) {
    // Within a minute or two: no whole minute in it, the entries are few.
    return { minutes: null, edges: [[lo, hi]] };
  }
  const edges: Array<[number?, number?]> = [];
  if (lo !== undefined && lo < firstMinute! * MINUTE_MS) edges.push([lo, firstMinute! * MINUTE_MS]);
  if (hi !== undefined && endMinute! * MINUTE_MS < hi) edges.push([endMinute! * MINUTE_MS, hi]);
  return { minutes: [firstMinute, endMinute], edges };
}

/**
 * An exact count of one webhook's entries with labels and a time range: the whole minutes summed
 * from `delivery_counts`, the part-minutes at each edge counted from the log through its time
 * index (at most a minute of the whole log each: a few hundred rows at the seed's full rate).
 * One statement, so one snapshot: the minutes and the edges agree.
 */
export function countByMinute(
  dialect: DeliveryDialect,
  webhookUid: string,
  only: DeliveryPageFilter,
): Call<number> {
  const params: unknown[] = [webhookUid];
  const bind: Bind = (value) => `$${params.push(value)}`;
  const labels = only.labels && only.labels.length > 0 ? only.labels : null;
  const { minutes, edges } = split(only.from, only.to);
  const parts: string[] = [];
  if (minutes) {
    const [first, end] = minutes;
    const where = ['d.webhook_uid = $1'];
    if (first !== undefined) where.push(`d.minute >= ${bind(first)}`);
    if (end !== undefined) where.push(`d.minute < ${bind(end)}`);
    if (labels) where.push(dialect.labelIn(bind, labels));
    parts.push(
      `(SELECT CAST(coalesce(sum(d.n), 0) AS BIGINT) FROM delivery_counts d WHERE ${where.join(' AND ')})`,
    );
  }
  for (const [lo, hi] of edges) {
    const where: string[] = [];
    if (lo !== undefined) where.push(`d.received_at >= ${bind(lo)}`);
    if (hi !== undefined) where.push(`d.received_at < ${bind(hi)}`);
    where.push('d.webhook_uid = $1');
    if (labels) where.push(dialect.labelIn(bind, labels));
    parts.push(
      `(SELECT count(*) FROM deliveries d ${dialect.byTime} WHERE ${where.join(' AND ')})`,
    );
  }
  return row(`SELECT ${parts.join(' + ')} AS n`, params, (r?: { n: number | string }) =>
    Number(r?.n ?? 0),
  );
}

function wholeMinute(since: number): number {
  if (since % MINUTE_MS !== 0) throw new Error(`since must be a whole minute: ${since}`);
  return since / MINUTE_MS;
}

/**
 * A factory's counts by webhook, hour (0 = the hour starting at `since`, a whole minute) and
 * label, summed from `delivery_counts`. CAST: SQLite binds a JS number as a REAL.
 */
export const activityByMinute = (
  factoryId: string,
  since: number,
): Call<Array<{ uid: string; hour: number; label: DeliveryLabel; n: number }>> =>
  rows(
    `SELECT c.webhook_uid AS uid, (c.minute - CAST($1 AS BIGINT)) / 60 AS hour, c.label AS label,
            CAST(sum(c.n) AS BIGINT) AS n
     FROM delivery_counts c JOIN webhooks w ON w.uid = c.webhook_uid
     WHERE w.factory_id = $2 AND c.minute >= $1 GROUP BY 1, 2, 3 HAVING sum(c.n) <> 0
     ORDER BY 1, 2, 3`,
    [wholeMinute(since), factoryId],
    (r: { uid: string; hour: number | string; label: DeliveryLabel; n: number | string }) => ({
      uid: r.uid,
      hour: Number(r.hour),
      label: r.label,
      n: Number(r.n),
    }),
  );

/**
 * One webhook's counts by bucket (0 = the one starting at `since`, a whole minute; buckets are
 * whole minutes long) and label, summed from `delivery_counts`.
 */
export const volumeByMinute = (
  webhookUid: string,
  since: number,
  bucketMs: number,
): Call<Array<{ bucket: number; label: DeliveryLabel; n: number }>> =>
  rows(
    `SELECT (minute - CAST($2 AS BIGINT)) / CAST($3 AS BIGINT) AS bucket, label,
            CAST(sum(n) AS BIGINT) AS n
     FROM delivery_counts WHERE webhook_uid = $1 AND minute >= $2
     GROUP BY 1, 2 HAVING sum(n) <> 0 ORDER BY 1, 2`,
    [webhookUid, wholeMinute(since), wholeMinute(bucketMs)],
    (r: { bucket: number | string; label: DeliveryLabel; n: number | string }) => ({
      bucket: Number(r.bucket),
      label: r.label,
      n: Number(r.n),
    }),
  );
