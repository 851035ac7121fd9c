import {
  type DeliveryRecord,
  type DeliveryRow,
  toRecord,
  RECOVERED_COLUMN,
  type DeliveryPageFilter,
  type DeliveriesRepository,
} from '../deliveries.js';
import type { Sync } from '../store.js';
import type Database from 'better-sqlite3';
import type { DeliveryLabel } from '../../../shared/labels.js';
import type { Db } from './db.js';
import type { RequestContext } from '../delivery-batch.js';
import { idFloor } from '../../../shared/delivery-ids.js';
import { queryParams, shapeKey, whereClause, type QueryParams } from './delivery-query.js';

const SELECT_WITH_RUNS = `
  SELECT d.*, (SELECT group_concat(r.id) FROM runs r WHERE r.delivery_id = d.id) AS run_ids,
    ${RECOVERED_COLUMN}
  FROM deliveries d`;

/** The read side of the delivery log; writes go through the delivery writer only. */
export function createDeliveriesRepository(db: Db): Sync<DeliveriesRepository> {
  // One statement per combination of filters used, prepared on first use.
  const pages = new Map<string, Database.Statement<QueryParams, DeliveryRow>>();
  const counts = new Map<string, Database.Statement<QueryParams, { n: number }>>();
  const pageStatement = (key: string, where: string) => {
    let statement = pages.get(key);
    if (!statement) {
      statement = db.prepare<QueryParams, DeliveryRow>(
        `${SELECT_WITH_RUNS} WHERE ${where} ORDER BY d.id DESC LIMIT @limit`,
      );
      pages.set(key, statement);
    }
    return statement;
  };
  const countStatement = (key: string, where: string) => {
    let statement = counts.get(key);
    if (!statement) {
      statement = db.prepare<QueryParams, { n: number }>(
        `SELECT count(*) AS n FROM deliveries d WHERE ${where}`,
      );
      counts.set(key, statement);
    }
    return statement;
  };
  const activity = db.prepare<
    [number, number, string],
    { uid: string; hour: number; label: DeliveryLabel; n: number }
  >(
    // CAST: a bound JS number is a REAL, which would make the hour a fraction and lose the row.
    `SELECT d.webhook_uid AS uid, (d.received_at - CAST(? AS INTEGER)) / 3600000 AS hour, d.label AS label, count(*) AS n
     FROM deliveries d JOIN webhooks w ON w.uid = d.webhook_uid
     WHERE d.received_at >= ? AND w.factory_id = ? GROUP BY 1, 2, 3`,
  );
  // Reads only the index (webhook, id, label, received_at); ids from `since` on start at idFloor.
  const volume = db.prepare<
    { uid: string; since: number; fromId: string; bucketMs: number },
    { bucket: number; label: DeliveryLabel; n: number }
  >(
    `SELECT (received_at - CAST(@since AS INTEGER)) / CAST(@bucketMs AS INTEGER) AS bucket, label, count(*) AS n
     FROM deliveries WHERE webhook_uid = @uid AND id >= @fromId AND received_at >= @since GROUP BY 1, 2`,
  );
  const latest = db.prepare<[string], { received_at: number }>(
    'SELECT received_at FROM deliveries WHERE webhook_uid = ? ORDER BY id DESC LIMIT 1',
  );
  const one = db.prepare<[string], DeliveryRow>(`${SELECT_WITH_RUNS} WHERE d.id = ?`);
  const payload = db.prepare<[string], { body: Buffer }>(
    'SELECT body FROM payloads WHERE delivery_id = ?',
  );
  const request = db.prepare<[string], { method: string; path: string; headers: string }>(
    'SELECT method, path, headers FROM request_contexts WHERE delivery_id = ?',
  );
  const countSince = db.prepare<[number], { n: number }>(
    'SELECT count(*) AS n FROM deliveries WHERE received_at >= ?',
  );

  return {
    /** Newest first; `before` is the ID of the last row of the previous page. */
    page: (
      webhookUid: string,
      limit: number,
      before: string | null,
      only: DeliveryPageFilter = {},
    ): { items: DeliveryRecord[]; nextBefore: string | null } => {
      const { shape, params } = queryParams(webhookUid, before, only);
      const rows = pageStatement(shapeKey(shape), whereClause(shape)).all({
        ...params,
        limit: limit + 1,
      });
      const items = rows.slice(0, limit).map(toRecord);
      return { items, nextBefore: rows.length > limit ? items[items.length - 1]!.id : null };
    },
    /** How many entries match, on every page (no `before`). */
    count: (webhookUid: string, only: DeliveryPageFilter = {}): number => {
      const { shape, params } = queryParams(webhookUid, null, only);
      return countStatement(shapeKey(shape), whereClause(shape)).get(params)!.n;
    },
    get: (id: string): DeliveryRecord | null => {
      const row = one.get(id);
      return row ? toRecord(row) : null;
    },
    payload: (id: string): Buffer | null => payload.get(id)?.body ?? null,
    /** Null for entries written before request contexts were kept ("not recorded"). */
    requestContext: (id: string): RequestContext | null => {
      const row = request.get(id);
      if (!row) return null;
      return {
        method: row.method,
        path: row.path,
        headers: JSON.parse(row.headers) as Array<[string, string]>,
      };
    },
    countSince: (since: number): number => countSince.get(since)!.n,
    /** Counts by webhook, hour (0 = the hour starting at `since`) and label, for a factory. */
    activitySince: (factoryId: string, since: number) => activity.all(since, since, factoryId),
    /** Counts by bucket (0 = the one starting at `since`) and label, for one webhook. */
    volumeSince: (webhookUid: string, since: number, bucketMs: number) =>
      volume.all({ uid: webhookUid, since, fromId: idFloor(since), bucketMs }),
    latestAt: (webhookUid: string): number | null => latest.get(webhookUid)?.received_at ?? null,
  };
}
