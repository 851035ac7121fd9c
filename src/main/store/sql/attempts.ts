import {
  toRecord,
  type AttemptRecord,
  type AttemptRow,
  type AttemptsRepository,
} from '../attempts.js';
import { row, rows, type Calls } from './query.js';

const SELECT = `
  SELECT id, delivery_id, webhook_uid, url, at, status, response_headers, response_body,
         body_truncated, duration_ms, error, sent_body, signed, request_headers, forwarder, delivered
  FROM forward_attempts`;

/** The attempt row's values in `$1`… order, as both twins' `record` insert them. */
export const attemptValues = (a: AttemptRecord): unknown[] => [
  a.id,
  a.deliveryId,
  a.webhookUid,
  a.url,
  a.at,
  a.status,
  JSON.stringify(a.responseHeaders),
  a.responseBody,
  a.bodyTruncated,
  a.durationMs,
  a.error,
  a.sentBody,
  a.signed,
  JSON.stringify(a.requestHeaders),
  a.forwarder,
  a.delivered,
];

export const INSERT_ATTEMPT = `
  INSERT INTO forward_attempts (id, delivery_id, webhook_uid, url, at, status, response_headers,
    response_body, body_truncated, duration_ms, error, sent_body, signed, request_headers,
    forwarder, delivered)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`;

/** Moves a URL's place only ever forward: two forwarders racing on one URL cannot move it back. */
export const ADVANCE_PLACE = `
  ON CONFLICT (webhook_uid, url) DO UPDATE SET delivery_id = excluded.delivery_id,
    updated_at = excluded.updated_at
  WHERE excluded.delivery_id > forward_cursors.delivery_id`;

/**
 * Forward attempts and `hookport forward`'s places: SQL for both stores. `record` is the twins'
 * (the attempt and the place in one step: a transaction on SQLite, one statement on PostgreSQL).
 */
export const attemptsCalls: Calls<Omit<AttemptsRepository, 'record'>> = {
  get: (id) => row(`${SELECT} WHERE id = $1`, [id], (r?: AttemptRow) => (r ? toRecord(r) : null)),
  /** Newest first. */
  ofDelivery: (deliveryId) =>
    rows(`${SELECT} WHERE delivery_id = $1 ORDER BY id DESC`, [deliveryId], toRecord),
  place: (webhookUid, url) =>
    row(
      'SELECT delivery_id FROM forward_cursors WHERE webhook_uid = $1 AND url = $2',
      [webhookUid, url],
      (r?: { delivery_id: string }) => r?.delivery_id ?? null,
    ),
};
