import { toRecord, type AttemptRow, type AttemptsRepository } from '../attempts.js';
import type { Queryable } from './client.js';

/** The columns as SQLite's mapper reads them: flags as 0 or 1. */
const SELECT = `
  SELECT id, delivery_id, webhook_uid, url, at, status, response_headers, response_body,
         body_truncated::int AS body_truncated, duration_ms, error, sent_body, signed::int AS signed,
         request_headers, forwarder::int AS forwarder, delivered::int AS delivered
  FROM forward_attempts`;

/** Forward attempts and the places of `hookport forward` per (webhook, URL), on PostgreSQL. */
export function createPostgresAttemptsRepository(q: Queryable): AttemptsRepository {
  return {
    /**
     * The attempt and, for a delivered forwarder attempt, the URL's new place: one statement, so
     * both or neither. The place only ever moves forward: two forwarders racing on one URL (on
     * two replicas) cannot move it back.
     */
    async record(attempt) {
      await q.query(
        `WITH attempt AS (
           INSERT INTO forward_attempts (id, delivery_id, webhook_uid, url, at, status,
             response_headers, response_body, body_truncated, duration_ms, error, sent_body, signed,
             request_headers, forwarder, delivered)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16))
         INSERT INTO forward_cursors (webhook_uid, url, delivery_id, updated_at)
         SELECT $3, $4, $2, $5 WHERE $15 AND $16
         ON CONFLICT (webhook_uid, url) DO UPDATE SET delivery_id = excluded.delivery_id,
           updated_at = excluded.updated_at
         WHERE excluded.delivery_id > forward_cursors.delivery_id`,
        [
          attempt.id,
          attempt.deliveryId,
          attempt.webhookUid,
          attempt.url,
          attempt.at,
          attempt.status,
          JSON.stringify(attempt.responseHeaders),
          attempt.responseBody,
          attempt.bodyTruncated,
          attempt.durationMs,
          attempt.error,
          attempt.sentBody,
          attempt.signed,
          JSON.stringify(attempt.requestHeaders),
          attempt.forwarder,
          attempt.delivered,
        ],
      );
    },
    async get(id) {
      const { rows } = await q.query<AttemptRow>(`${SELECT} WHERE id = $1`, [id]);
      return rows[0] ? toRecord(rows[0]) : null;
    },
    /** Newest first. */
    async ofDelivery(deliveryId) {
      const { rows } = await q.query<AttemptRow>(
        `${SELECT} WHERE delivery_id = $1 ORDER BY id DESC`,
        [deliveryId],
      );
      return rows.map(toRecord);
    },
    /** The last delivery of the webhook `hookport forward` delivered to `url`, if any. */
    async place(webhookUid, url) {
      const { rows } = await q.query<{ delivery_id: string }>(
        'SELECT delivery_id FROM forward_cursors WHERE webhook_uid = $1 AND url = $2',
        [webhookUid, url],
      );
      return rows[0]?.delivery_id ?? null;
    },
  };
}
