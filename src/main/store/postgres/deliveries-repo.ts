import type { DeliveryLabel } from '../../../shared/labels.js';
import { idFloor } from '../../../shared/delivery-ids.js';
import {
  RECOVERED_COLUMN,
  toRecord,
  type DeliveriesRepository,
  type DeliveryPageFilter,
  type DeliveryRecord,
  type DeliveryRow,
} from '../deliveries.js';
import type { RequestContext } from '../delivery-batch.js';
import type { Queryable } from './client.js';

const SELECT_WITH_RUNS = `
  SELECT d.*,
    (SELECT string_agg(r.id, ',' ORDER BY r.id) FROM runs r WHERE r.delivery_id = d.id) AS run_ids,
    ${RECOVERED_COLUMN}
  FROM deliveries d`;

/** `LIKE` takes `%`, `_` and `\` as wildcards and escape: a search means them literally. */
const likeSubstring = (text: string): string => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

/**
 * Entries whose ID, identity, event type, summary or payload text holds the pattern, case folded on both
 * sides (migration 8). A row is found through the trigram indexes once indexed, and by reading
 * it while still queued (migration 10; few: the indexers keep up between bursts), so an entry is
 * found from its 202 on. Each table's two halves are one OR, which PostgreSQL answers from both
 * partial indexes in one bitmap.
 */
const searchHits = (pattern: string): string => {
  const like = (text: string): string => `${text} LIKE hookport_fold(${pattern})`;
  const fields = ['s.id', 's.identity', 's.event_type', 's.summary'].map((f) =>
    like(`hookport_fold(${f})`),
  );
  const payload = like('hookport_payload_text(p.body)');
  return `
  SELECT s.id FROM deliveries s
  WHERE ${fields.map((f) => `(s.indexed AND ${f})`).join(' OR ')}
     OR (NOT s.indexed AND (${fields.join(' OR ')}))
  UNION
  SELECT p.delivery_id FROM payloads p
  WHERE (p.indexed AND ${payload}) OR (NOT p.indexed AND ${payload})`;
};

/** The WHERE clause and its parameters for one webhook's page or count (delivery-query.ts). */
function whereOf(
  uid: string,
  before: string | null,
  only: DeliveryPageFilter,
): { where: string; params: unknown[] } {
  const params: unknown[] = [uid];
  const next = (value: unknown): string => `$${params.push(value)}`;
  const parts = ['d.webhook_uid = $1'];
  if (before !== null) parts.push(`d.id < ${next(before)}`);
  if (only.from !== undefined) {
    parts.push(`d.id >= ${next(idFloor(only.from))}`, `d.received_at >= ${next(only.from)}`);
  }
  if (only.to !== undefined) parts.push(`d.received_at <= ${next(only.to)}`);
  if (only.labels && only.labels.length > 0) {
    parts.push(`d.label = ANY(${next([...only.labels])}::text[])`);
  }
  if (only.identity !== undefined) parts.push(`d.identity = ${next(only.identity)}`);
  if (only.eventType !== undefined) parts.push(`d.event_type = ${next(only.eventType)}`);
  if (only.q !== undefined) parts.push(`d.id IN (${searchHits(next(likeSubstring(only.q)))})`);
  return { where: parts.join(' AND '), params };
}

interface ActivityRow {
  uid: string;
  hour: number;
  label: DeliveryLabel;
  n: number;
}

/** The read side of the delivery log on PostgreSQL; writes go through the batch store only. */
export function createPostgresDeliveriesRepository(q: Queryable): DeliveriesRepository {
  const first = async <T extends object>(sql: string, params: unknown[]): Promise<T | null> => {
    const { rows } = await q.query<T>(sql, params);
    return rows[0] ?? null;
  };
  const count = async (sql: string, params: unknown[]): Promise<number> =>
    (await first<{ n: number }>(sql, params))?.n ?? 0;

  return {
    /** Newest first; `before` is the ID of the last row of the previous page. */
    async page(webhookUid, limit, before, only = {}) {
      const { where, params } = whereOf(webhookUid, before, only);
      const { rows } = await q.query<DeliveryRow>(
        `${SELECT_WITH_RUNS} WHERE ${where} ORDER BY d.id DESC LIMIT $${params.length + 1}`,
        [...params, limit + 1],
      );
      const items = rows.slice(0, limit).map(toRecord);
      return { items, nextBefore: rows.length > limit ? items[items.length - 1]!.id : null };
    },
    /** How many entries match, on every page (no `before`). */
    async count(webhookUid, only = {}) {
      const { where, params } = whereOf(webhookUid, null, only);
      return count(`SELECT count(*) AS n FROM deliveries d WHERE ${where}`, params);
    },
    async get(id): Promise<DeliveryRecord | null> {
      const row = await first<DeliveryRow>(`${SELECT_WITH_RUNS} WHERE d.id = $1`, [id]);
      return row ? toRecord(row) : null;
    },
    async payload(id) {
      const row = await first<{ body: Buffer }>(
        'SELECT body FROM payloads WHERE delivery_id = $1',
        [id],
      );
      return row?.body ?? null;
    },
    /** Null for entries written before request contexts were kept ("not recorded"). */
    async requestContext(id): Promise<RequestContext | null> {
      const row = await first<{ method: string; path: string; headers: string }>(
        'SELECT method, path, headers FROM request_contexts WHERE delivery_id = $1',
        [id],
      );
      if (!row) return null;
      return {
        method: row.method,
        path: row.path,
        headers: JSON.parse(row.headers) as Array<[string, string]>,
      };
    },
    countSince: (since) =>
      count('SELECT count(*) AS n FROM deliveries WHERE received_at >= $1', [since]),
    /** Counts by webhook, hour (0 = the hour starting at `since`) and label, for a factory. */
    async activitySince(factoryId, since) {
      const { rows } = await q.query<ActivityRow>(
        `SELECT d.webhook_uid AS uid, (d.received_at - $1::BIGINT) / 3600000 AS hour,
                d.label AS label, count(*) AS n
         FROM deliveries d JOIN webhooks w ON w.uid = d.webhook_uid
         WHERE d.received_at >= $1 AND w.factory_id = $2 GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
        [since, factoryId],
      );
      return rows;
    },
    /** Counts by bucket (0 = the one starting at `since`) and label, for one webhook. */
    async volumeSince(webhookUid, since, bucketMs) {
      const { rows } = await q.query<{ bucket: number; label: DeliveryLabel; n: number }>(
        `SELECT (received_at - $2::BIGINT) / $4::BIGINT AS bucket, label, count(*) AS n
         FROM deliveries WHERE webhook_uid = $1 AND id >= $3 AND received_at >= $2
         GROUP BY 1, 2 ORDER BY 1, 2`,
        [webhookUid, since, idFloor(since), bucketMs],
      );
      return rows;
    },
    async latestAt(webhookUid) {
      const row = await first<{ received_at: number }>(
        'SELECT received_at FROM deliveries WHERE webhook_uid = $1 ORDER BY id DESC LIMIT 1',
        [webhookUid],
      );
      return row?.received_at ?? null;
    },
  };
}
