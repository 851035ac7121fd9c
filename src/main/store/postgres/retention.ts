import type { Retention, RetentionPolicy } from '../retention-policy.js';
import type { Queryable } from './client.js';

const DAY_MS = 24 * 60 * 60_000;
/** Entries read from the time index per statement: one short statement each, at any log size. */
const BATCH = 500;

/**
 * One batch: the next `BATCH` entries past the cutoff by the time index, after a cursor (so
 * those the policy protects are read once per prune, not again by every batch); of those, the
 * ones beyond the newest `min` of their webhook (one index lookup per webhook in the batch: the
 * ID of its newest min-th) with no run queued or running are deleted, with all of their rows.
 * Never a window over the whole table: that took seconds per batch at a week's scale.
 * Data-modifying CTEs all run, whether or not the statement reads them.
 */
const PRUNE_BATCH = `
  WITH candidates AS (
    SELECT id, webhook_uid, received_at FROM deliveries
    WHERE received_at < $1 AND (received_at, id) > ($4::bigint, $5::text)
    ORDER BY received_at, id LIMIT $3),
  floors AS (
    SELECT w.uid, (SELECT x.id FROM deliveries x WHERE x.webhook_uid = w.uid
                   ORDER BY x.id DESC OFFSET greatest($2::int - 1, 0) LIMIT 1) AS floor
    FROM (SELECT DISTINCT webhook_uid AS uid FROM candidates) AS w),
  doomed AS (
    SELECT c.id FROM candidates c JOIN floors f ON f.uid = c.webhook_uid
    WHERE ($2::int = 0 OR (f.floor IS NOT NULL AND c.id < f.floor))
      AND NOT EXISTS (SELECT 1 FROM runs WHERE runs.delivery_id = c.id
                                           AND runs.status IN ('queued', 'running'))),
  payloads_gone AS (DELETE FROM payloads WHERE delivery_id IN (SELECT id FROM doomed)),
  requests_gone AS (DELETE FROM request_contexts WHERE delivery_id IN (SELECT id FROM doomed)),
  attempts_gone AS (DELETE FROM forward_attempts WHERE delivery_id IN (SELECT id FROM doomed)),
  runs_gone AS (DELETE FROM runs WHERE delivery_id IN (SELECT id FROM doomed)),
  deleted AS (DELETE FROM deliveries WHERE id IN (SELECT id FROM doomed) RETURNING 1),
  last AS (SELECT received_at, id FROM candidates ORDER BY received_at DESC, id DESC LIMIT 1)
  SELECT (SELECT count(*) FROM candidates)::int AS read,
         (SELECT count(*) FROM deleted)::int AS removed,
         (SELECT received_at FROM last) AS at, (SELECT id FROM last) AS id`;

/** Expired identities, a batch per statement (an hour's keys of a busy factory are many). */
const FORGET_KEYS = `
  DELETE FROM dedupe_keys WHERE ctid IN (
    SELECT ctid FROM dedupe_keys WHERE accepted_at < $1 LIMIT $2)`;

/**
 * retention.ts on PostgreSQL, with the same policy. The store runs it under the 'retention'
 * advisory lock (one replica at a time).
 */
export function createPostgresRetention(q: Queryable): Retention {
  return {
    /** Deletes what the policy no longer protects; returns how many deliveries went. */
    async prune(policy: RetentionPolicy, now: number): Promise<number> {
      const cutoff = now - policy.days * DAY_MS;
      let removed = 0;
      // Before every entry: IDs are 'dlv_…', and '' sorts before them all.
      let cursor: { at: number | string; id: string } = { at: -1, id: '' };
      for (;;) {
        const { rows } = await q.query<{
          read: number;
          removed: number;
          at: string | null;
          id: string | null;
        }>(PRUNE_BATCH, [cutoff, policy.minPerWebhook, BATCH, cursor.at, cursor.id]);
        const batch = rows[0]!;
        removed += batch.removed;
        if (batch.read < BATCH || batch.at === null || batch.id === null) break;
        cursor = { at: batch.at, id: batch.id };
      }
      const keyCutoff = now - policy.dedupeWindowMs;
      for (;;) {
        const { rowCount } = await q.query(FORGET_KEYS, [keyCutoff, BATCH * 4]);
        if ((rowCount ?? 0) < BATCH * 4) break;
      }
      return removed;
    },
  };
}
