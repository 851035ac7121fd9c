import type { AcceptedEntry, DeliveryScans, StoredPayload } from '../scans.js';
import type { Queryable } from './client.js';

interface EntryRow {
  id: string;
  webhook_uid: string;
  received_at: number;
  event_type: string | null;
  size: number;
}

const toEntry = (r: EntryRow): AcceptedEntry => ({
  id: r.id,
  webhookUid: r.webhook_uid,
  receivedAt: r.received_at,
  eventType: r.event_type,
  size: r.size,
});

/**
 * delivery-scans.ts on PostgreSQL: what `hookport forward` has still to send, and the newest
 * stored payloads the filter lab and field autocomplete read.
 */
export function createPostgresDeliveryScans(q: Queryable): DeliveryScans {
  return {
    /** Accepted deliveries of the webhook after `afterId` (exclusive), oldest first. */
    async acceptedAfter(webhookUid, afterId, limit) {
      const { rows } = await q.query<EntryRow>(
        `SELECT id, webhook_uid, received_at, event_type, size FROM deliveries
         WHERE webhook_uid = $1 AND id > $2 AND label = 'Accepted' ORDER BY id LIMIT $3`,
        [webhookUid, afterId, limit],
      );
      return rows.map(toEntry);
    },
    async newestAcceptedId(webhookUid) {
      const { rows } = await q.query<{ id: string }>(
        `SELECT id FROM deliveries WHERE webhook_uid = $1 AND label = 'Accepted'
         ORDER BY id DESC LIMIT 1`,
        [webhookUid],
      );
      return rows[0]?.id ?? null;
    },
    /**
     * The newest `limit` Accepted payloads of these webhooks together, newest first: the newest
     * entries of each webhook from its index, the newest `limit` of those, then only their bodies.
     */
    async newestPayloads(webhookUids, limit, beforeId): Promise<StoredPayload[]> {
      const { rows } = await q.query<EntryRow & { body: Buffer }>(
        `WITH newest AS (
           SELECT e.* FROM unnest($1::text[]) AS u (uid)
           CROSS JOIN LATERAL (
             SELECT id, webhook_uid, received_at, event_type, size FROM deliveries
             WHERE webhook_uid = u.uid AND label = 'Accepted' AND ($3::text IS NULL OR id < $3)
             ORDER BY id DESC LIMIT $2) e
           ORDER BY e.id DESC LIMIT $2)
         SELECT newest.*, p.body FROM newest JOIN payloads p ON p.delivery_id = newest.id
         ORDER BY newest.id DESC`,
        [[...new Set(webhookUids)], limit, beforeId ?? null],
      );
      return rows.map((row) => ({ ...toEntry(row), body: row.body }));
    },
  };
}
