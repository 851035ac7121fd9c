import type { Db } from './db.js';

export interface RetentionPolicy {
  /** Every delivery newer than this many days is kept. */
  days: number;
  /** And at least this many of the newest per webhook, however old. */
  minPerWebhook: number;
  dedupeWindowMs: number;
}

const DAY_MS = 24 * 60 * 60_000;
/** Small batches: each is one short transaction, so the ingress never waits long behind a prune. */
const BATCH = 2_000;

export type Retention = ReturnType<typeof createRetention>;

export function createRetention(db: Db) {
  const candidates = db.prepare<{ cutoff: number; min: number; batch: number }, { id: string }>(`
    SELECT id FROM (
      SELECT id, received_at, ROW_NUMBER() OVER (PARTITION BY webhook_uid ORDER BY id DESC) AS rn FROM deliveries
    ) AS ranked
    WHERE rn > @min AND received_at < @cutoff
      AND NOT EXISTS (SELECT 1 FROM runs WHERE runs.delivery_id = ranked.id AND runs.status IN ('queued', 'running'))
    LIMIT @batch`);
  const deletePayload = db.prepare('DELETE FROM payloads WHERE delivery_id = ?');
  const deleteRequest = db.prepare('DELETE FROM request_contexts WHERE delivery_id = ?');
  const deleteAttempts = db.prepare('DELETE FROM forward_attempts WHERE delivery_id = ?');
  const deleteRuns = db.prepare('DELETE FROM runs WHERE delivery_id = ?');
  const deleteDelivery = db.prepare('DELETE FROM deliveries WHERE id = ?');
  const deleteKeys = db.prepare('DELETE FROM dedupe_keys WHERE accepted_at < ?');

  const pruneBatch = db.transaction((ids: string[]) => {
    for (const id of ids) {
      deletePayload.run(id);
      deleteRequest.run(id);
      deleteAttempts.run(id);
      deleteRuns.run(id);
      deleteDelivery.run(id);
    }
  });

  return {
    /** Deletes what the policy no longer protects; returns how many deliveries went. */
    async prune(policy: RetentionPolicy, now: number): Promise<number> {
      const cutoff = now - policy.days * DAY_MS;
      let removed = 0;
      for (;;) {
        const ids = candidates
          .all({ cutoff, min: policy.minPerWebhook, batch: BATCH })
          .map((r) => r.id);
        if (ids.length === 0) break;
        pruneBatch(ids);
        removed += ids.length;
        await new Promise((resolve) => setImmediate(resolve));
      }
      deleteKeys.run(now - policy.dedupeWindowMs);
      return removed;
    },
  };
}
