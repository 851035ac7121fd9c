import type { DeliveryLabel } from '../../../shared/labels.js';
import { idFloor } from '../../../shared/delivery-ids.js';
import {
  RECOVERED_COLUMN,
  toRecord,
  type DeliveriesRepository,
  type DeliveryRow,
} from '../deliveries.js';
import { deliveryFilter, type DeliveryDialect } from './delivery-filter.js';
import { mapCall, row, rows, type Calls } from './query.js';

const count = (r?: { n: number }): number => Number(r?.n ?? 0);

/** The read side of the delivery log, for both stores; writes go through the batch store only. */
export function deliveriesCalls(dialect: DeliveryDialect): Calls<DeliveriesRepository> {
  const SELECT = `
    SELECT d.*, (SELECT ${dialect.commaList('r.id')} FROM runs r WHERE r.delivery_id = d.id) AS run_ids,
      ${RECOVERED_COLUMN}
    FROM deliveries d`;
  return {
    /** Newest first; `before` is the ID of the last row of the previous page. */
    page: (webhookUid, limit, before, only = {}) => {
      const { where, params } = deliveryFilter(dialect, webhookUid, before, only);
      // One row more than the page: whether there is a next one.
      const all = rows(
        `${SELECT} WHERE ${where} ORDER BY d.id DESC LIMIT $${params.push(limit + 1)}`,
        params,
        toRecord,
      );
      return mapCall(all, (records) => ({
        items: records.slice(0, limit),
        nextBefore: records.length > limit ? records[limit - 1]!.id : null,
      }));
    },
    /** How many entries match, on every page (no `before`). */
    count: (webhookUid, only = {}) => {
      const { where, params } = deliveryFilter(dialect, webhookUid, null, only);
      return row(`SELECT count(*) AS n FROM deliveries d WHERE ${where}`, params, count);
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
    /**
     * Counts by webhook, hour (0 = the hour starting at `since`) and label, for a factory. CAST:
     * SQLite binds a JS number as a REAL, which would make the hour a fraction.
     */
    activitySince: (factoryId, since) =>
      rows(
        `SELECT d.webhook_uid AS uid, (d.received_at - CAST($1 AS BIGINT)) / 3600000 AS hour,
                d.label AS label, count(*) AS n
         FROM deliveries d JOIN webhooks w ON w.uid = d.webhook_uid
         WHERE d.received_at >= $1 AND w.factory_id = $2 GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
        [since, factoryId],
        (r: { uid: string; hour: number; label: DeliveryLabel; n: number }) => r,
      ),
    /** Counts by bucket (0 = the one starting at `since`) and label, for one webhook. */
    volumeSince: (webhookUid, since, bucketMs) =>
      rows(
        // Reads only the index (webhook, id, label, received_at); ids from `since` start at idFloor.
        `SELECT (received_at - CAST($2 AS BIGINT)) / CAST($4 AS BIGINT) AS bucket, label,
                count(*) AS n
         FROM deliveries WHERE webhook_uid = $1 AND id >= $3 AND received_at >= $2
         GROUP BY 1, 2 ORDER BY 1, 2`,
        [webhookUid, since, idFloor(since), bucketMs],
        (r: { bucket: number; label: DeliveryLabel; n: number }) => r,
      ),
    latestAt: (webhookUid) =>
      row(
        'SELECT received_at FROM deliveries WHERE webhook_uid = $1 ORDER BY id DESC LIMIT 1',
        [webhookUid],
        (r?: { received_at: number }) => r?.received_at ?? null,
      ),
  };
}
