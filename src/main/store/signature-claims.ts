import type { AcceptItem } from './delivery-batch.js';

/**
 * A replayed signature (issue 24): for schemes that sign a timestamp, a captured request sent
 * again inside its tolerance with a new unsigned identity header is the same delivery. Besides
 * its identity, such an item claims a second dedupe key made from its signature, so the store's
 * unique key (not a read before the write) decides, on every replica alike.
 */

/**
 * How long a signature's key holds: longer than any accepted replay can come after the first
 * (twice the widest tolerance, Stripe's and Slack's 5 minutes, either way of the signed time).
 */
export const SIGNATURE_KEY_WINDOW_MS = 15 * 60_000;

/**
 * The key's identity: a line break cannot occur in a header value (identities from headers) nor in
 * `sha256:<hex>` (identities from bodies), so no sender can name, or take, a signature's key.
 */
const SIGNATURE_KEY_PREFIX = 'signature\n';

export interface SignatureClaim {
  webhookUid: string;
  identity: string;
  deliveryId: string;
  /**
   * Written as `accepted_at`, moved back so that the store's one dedupe window covers the short
   * one: the key is outgrown, taken over and pruned `SIGNATURE_KEY_WINDOW_MS` after the delivery,
   * by the same comparisons and the same retention as every identity key.
   */
  acceptedAt: number;
}

/** The signature key an accept item claims, or null (no signed timestamp, or a replay by the operator). */
export function signatureClaim(item: AcceptItem, dedupeWindowMs: number): SignatureClaim | null {
  if (item.signatureKey === undefined || item.replayOf) return null;
  return {
    webhookUid: item.webhookUid,
    identity: SIGNATURE_KEY_PREFIX + item.signatureKey,
    deliveryId: item.id,
    acceptedAt:
      item.receivedAt - dedupeWindowMs + Math.min(SIGNATURE_KEY_WINDOW_MS, dedupeWindowMs),
  };
}
