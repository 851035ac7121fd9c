import {
  type AttemptRecord,
  type AttemptRow,
  toRecord,
  type AttemptsRepository,
} from '../attempts.js';
import type { Sync } from '../store.js';
import type { Db } from './db.js';

/** Forward attempts and the places of `hookport forward` per (webhook, URL). */
export function createAttemptsRepository(db: Db): Sync<AttemptsRepository> {
  const insert = db.prepare(`
    INSERT INTO forward_attempts (id, delivery_id, webhook_uid, url, at, status, response_headers,
      response_body, body_truncated, duration_ms, error, sent_body, signed, request_headers,
      forwarder, delivered)
    VALUES (@id, @deliveryId, @webhookUid, @url, @at, @status, @responseHeaders, @responseBody,
      @bodyTruncated, @durationMs, @error, @sentBody, @signed, @requestHeaders, @forwarder,
      @delivered)`);
  // Only ever forward: two forwarders racing on one URL cannot move the place back.
  const advance = db.prepare(`
    INSERT INTO forward_cursors (webhook_uid, url, delivery_id, updated_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (webhook_uid, url) DO UPDATE SET delivery_id = excluded.delivery_id,
      updated_at = excluded.updated_at
    WHERE excluded.delivery_id > forward_cursors.delivery_id`);
  const ofDelivery = db.prepare<[string], AttemptRow>(
    'SELECT * FROM forward_attempts WHERE delivery_id = ? ORDER BY id DESC',
  );
  const one = db.prepare<[string], AttemptRow>('SELECT * FROM forward_attempts WHERE id = ?');
  const cursor = db.prepare<[string, string], { delivery_id: string }>(
    'SELECT delivery_id FROM forward_cursors WHERE webhook_uid = ? AND url = ?',
  );

  const record = db.transaction((attempt: AttemptRecord): void => {
    insert.run({
      ...attempt,
      responseHeaders: JSON.stringify(attempt.responseHeaders),
      requestHeaders: JSON.stringify(attempt.requestHeaders),
      bodyTruncated: attempt.bodyTruncated ? 1 : 0,
      signed: attempt.signed ? 1 : 0,
      forwarder: attempt.forwarder ? 1 : 0,
      delivered: attempt.delivered ? 1 : 0,
    });
    if (attempt.forwarder && attempt.delivered) {
      advance.run(attempt.webhookUid, attempt.url, attempt.deliveryId, attempt.at);
    }
  });

  return {
    /** The attempt and, for a delivered forwarder attempt, the URL's new place: one transaction. */
    record: (attempt: AttemptRecord): void => record(attempt),
    get: (id: string): AttemptRecord | null => {
      const row = one.get(id);
      return row ? toRecord(row) : null;
    },
    /** Newest first. */
    ofDelivery: (deliveryId: string): AttemptRecord[] => ofDelivery.all(deliveryId).map(toRecord),
    /** The last delivery of the webhook `hookport forward` delivered to `url`, if any. */
    place: (webhookUid: string, url: string): string | null =>
      cursor.get(webhookUid, url)?.delivery_id ?? null,
  };
}
