import type { Retention, RetentionPolicy } from '../retention.js';
import type { Async } from '../store.js';
import type { Queryable } from './client.js';

const DAY_MS = 24 * 60 * 60_000;
/** Small batches: each is one short statement, so the ingress never waits long behind a prune. */
const BATCH = 2_000;

/**
 * One batch of what the policy no longer protects, deleted in one statement (all of an entry's
 * rows, or none): older than the cutoff, beyond the newest `min` of its webhook, and with no run
 * queued or running. Data-modifying CTEs all run, whether or not the statement reads them.
 */
const PRUNE_BATCH = `
  WITH doomed AS (
    SELECT id FROM (
      SELECT id, received_at,
             ROW_NUMBER() OVER (PARTITION BY webhook_uid ORDER BY id DESC) AS rn
      FROM deliveries
    ) AS ranked
    WHERE rn > $2 AND received_at < $1
      AND NOT EXISTS (SELECT 1 FROM runs WHERE runs.delivery_id = ranked.id
                                           AND runs.status IN ('queued', 'running'))
    LIMIT $3),
  payloads_gone AS (DELETE FROM payloads WHERE delivery_id IN (SELECT id FROM doomed)),
  requests_gone AS (DELETE FROM request_contexts WHERE delivery_id IN (SELECT id FROM doomed)),
  attempts_gone AS (DELETE FROM forward_attempts WHERE delivery_id IN (SELECT id FROM doomed)),
  runs_gone AS (DELETE FROM runs WHERE delivery_id IN (SELECT id FROM doomed))
  DELETE FROM deliveries WHERE id IN (SELECT id FROM doomed)`;

/**
 * retention.ts on PostgreSQL, with the same policy. The store runs it under the 'retention'
 * advisory lock (one replica at a time).
 */
export function createPostgresRetention(q: Queryable): Async<Retention> {
  return {
    /** Deletes what the policy no longer protects; returns how many deliveries went. */
    async prune(policy: RetentionPolicy, now: number): Promise<number> {
      const cutoff = now - policy.days * DAY_MS;
      let removed = 0;
      for (;;) {
        const { rowCount } = await q.query(PRUNE_BATCH, [cutoff, policy.minPerWebhook, BATCH]);
        if (!rowCount) break;
        removed += rowCount;
      }
      await q.query('DELETE FROM dedupe_keys WHERE accepted_at < $1', [
        now - policy.dedupeWindowMs,
      ]);
      return removed;
    },
  };
}
