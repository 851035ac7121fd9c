import type pg from 'pg';

export interface IdentityClaim {
  webhookUid: string;
  identity: string;
  deliveryId: string;
  receivedAt: number;
}

/** Who holds each identity once the claims are made: this batch's delivery or an earlier one. */
export type ClaimResult = Map<string, { taken: boolean; holder: string }>;

export const claimKey = (webhookUid: string, identity: string): string =>
  `${webhookUid}\u0000${identity}`;

/**
 * Takes the dedupe key of each identity for its delivery, or learns which delivery holds it.
 * The unique key decides, never a read before the write: INSERT … ON CONFLICT waits for a
 * concurrent transaction holding the same key to end, so of two replicas committing one
 * identity at the same moment exactly one takes it. A key older than the window is taken over
 * in the same statement. Keys are written in one order (byte order of uid, identity) by every
 * replica, so two batches sharing keys queue behind each other instead of deadlocking.
 *
 * `claims` must hold each (webhookUid, identity) once.
 */
export async function claimIdentities(
  client: pg.ClientBase,
  claims: readonly IdentityClaim[],
  dedupeWindowMs: number,
): Promise<ClaimResult> {
  const result: ClaimResult = new Map();
  let pending = claims;
  // A held key seen by ON CONFLICT stays locked by this transaction, so the follow-up read finds
  // it; the loop is only a guard should a key vanish in between (then it can be taken).
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt === 3) throw new Error('dedupe keys kept changing under the batch; retry');
    const taken = await client.query<{ webhook_uid: string; identity: string }>(
      `INSERT INTO dedupe_keys (webhook_uid, identity, delivery_id, accepted_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[])
         AS c (webhook_uid, identity, delivery_id, accepted_at)
       ORDER BY webhook_uid COLLATE "C", identity COLLATE "C"
       ON CONFLICT (webhook_uid, identity) DO UPDATE
         SET delivery_id = excluded.delivery_id, accepted_at = excluded.accepted_at
         WHERE dedupe_keys.accepted_at <= excluded.accepted_at - $5::bigint
       RETURNING webhook_uid, identity`,
      [
        pending.map((c) => c.webhookUid),
        pending.map((c) => c.identity),
        pending.map((c) => c.deliveryId),
        pending.map((c) => c.receivedAt),
        dedupeWindowMs,
      ],
    );
    const byKey = new Map(pending.map((c) => [claimKey(c.webhookUid, c.identity), c]));
    for (const row of taken.rows) {
      const key = claimKey(row.webhook_uid, row.identity);
      result.set(key, { taken: true, holder: byKey.get(key)!.deliveryId });
      byKey.delete(key);
    }
    if (byKey.size === 0) break;
    const rest = [...byKey.values()];
    const held = await client.query<{ webhook_uid: string; identity: string; delivery_id: string }>(
      `SELECT d.webhook_uid, d.identity, d.delivery_id FROM dedupe_keys d
       JOIN unnest($1::text[], $2::text[]) AS c (webhook_uid, identity)
         ON d.webhook_uid = c.webhook_uid AND d.identity = c.identity`,
      [rest.map((c) => c.webhookUid), rest.map((c) => c.identity)],
    );
    for (const row of held.rows) {
      const key = claimKey(row.webhook_uid, row.identity);
      result.set(key, { taken: false, holder: row.delivery_id });
      byKey.delete(key);
    }
    pending = [...byKey.values()];
  }
  return result;
}
