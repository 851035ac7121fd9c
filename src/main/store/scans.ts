export interface AcceptedEntry {
  id: string;
  webhookUid: string;
  receivedAt: number;
  eventType: string | null;
  size: number;
}

export interface StoredPayload extends AcceptedEntry {
  body: Buffer;
}

export interface EntryRow {
  id: string;
  webhook_uid: string;
  received_at: number;
  event_type: string | null;
  size: number;
}

export const toEntry = (r: EntryRow): AcceptedEntry => ({
  id: r.id,
  webhookUid: r.webhook_uid,
  receivedAt: r.received_at,
  eventType: r.event_type,
  size: r.size,
});

/**
 * Reads over a webhook's Accepted deliveries for the tester's loop: what `hookport forward` has
 * still to send (oldest first, after a place), and the newest stored payloads that the filter lab
 * and field autocomplete read. Each walks the (webhook_uid, id) index of one webhook.
 */
export interface DeliveryScans {
  /** Accepted deliveries of the webhook after `afterId` (exclusive), oldest first. */
  acceptedAfter(webhookUid: string, afterId: string, limit: number): Promise<AcceptedEntry[]>;
  newestAcceptedId(webhookUid: string): Promise<string | null>;
  /**
   * The newest `limit` Accepted payloads of these webhooks together, newest first; with
   * `beforeId`, those older than it (the filter lab reads a thousand a page at a time).
   */
  newestPayloads(
    webhookUids: readonly string[],
    limit: number,
    beforeId?: string,
  ): Promise<StoredPayload[]>;
}
