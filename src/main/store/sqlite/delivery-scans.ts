import {
  toEntry,
  type AcceptedEntry,
  type EntryRow,
  type StoredPayload,
  type DeliveryScans,
} from '../scans.js';
import type { Sync } from '../store.js';
import type { Db } from './db.js';

/**
 * Reads over a webhook's Accepted deliveries for the tester's loop: what `hookport forward` has
 * still to send (oldest first, after a place), and the newest stored payloads that the filter lab
 * and field autocomplete read. Each walks the (webhook_uid, id) index of one webhook.
 */
export function createDeliveryScans(db: Db): Sync<DeliveryScans> {
  const after = db.prepare<[string, string, number], EntryRow>(`
    SELECT id, webhook_uid, received_at, event_type, size FROM deliveries
    WHERE webhook_uid = ? AND id > ? AND label = 'Accepted' ORDER BY id LIMIT ?`);
  const newest = db.prepare<[string], { id: string }>(`
    SELECT id FROM deliveries WHERE webhook_uid = ? AND label = 'Accepted' ORDER BY id DESC LIMIT 1`);
  const newestEntries = db.prepare<[string, string, number], EntryRow>(`
    SELECT id, webhook_uid, received_at, event_type, size FROM deliveries
    WHERE webhook_uid = ? AND label = 'Accepted' AND id < ? ORDER BY id DESC LIMIT ?`);
  const payload = db.prepare<[string], { body: Buffer }>(
    'SELECT body FROM payloads WHERE delivery_id = ?',
  );

  return {
    /** Accepted deliveries of the webhook after `afterId` (exclusive), oldest first. */
    acceptedAfter: (webhookUid: string, afterId: string, limit: number): AcceptedEntry[] =>
      after.all(webhookUid, afterId, limit).map(toEntry),
    newestAcceptedId: (webhookUid: string): string | null => newest.get(webhookUid)?.id ?? null,
    /**
     * The newest `limit` Accepted payloads of these webhooks together, newest first; with
     * `beforeId`, those older than it (the filter lab reads a thousand a page at a time).
     */
    newestPayloads: (
      webhookUids: readonly string[],
      limit: number,
      beforeId?: string,
    ): StoredPayload[] => {
      // Entries first (no payload pages), then the bodies of the newest `limit` only. IDs are
      // ASCII: U+FFFF sorts after every one of them.
      const entries = [...new Set(webhookUids)].flatMap((uid) =>
        newestEntries.all(uid, beforeId ?? '\uffff', limit).map(toEntry),
      );
      entries.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
      const out: StoredPayload[] = [];
      for (const entry of entries.slice(0, limit)) {
        const body = payload.get(entry.id)?.body;
        if (body) out.push({ ...entry, body });
      }
      return out;
    },
  };
}
