import { performance } from 'node:perf_hooks';
import { pacedSlices, type SlicePacing } from '../paced-slices.js';
import { pruneCutoff, type Retention, type RetentionPolicy } from '../retention-policy.js';
import type { Queryable } from './client.js';
import { RowsPerBudget } from './rows-per-budget.js';

/**
 * A statement per slice, sized to about `ms`, then three times its length of rest: each batch
 * writes its deletes' WAL, which the senders' next commits flush with their own. Back to back, a
 * restart's prune of 250,000 entries at two million took the database's time for 14 s; at a
 * quarter of it, about 50 s.
 */
const RETENTION_PACING: SlicePacing = { ms: 25, share: 0.25 };
/** Entries read from the time index per statement, at most: one short statement at any log size. */
const MAX_ENTRIES = 500;
/** Expired identities per statement, at most (an hour's keys of a busy factory are many). */
const MAX_KEYS = 2_000;
const MIN_BATCH = 20;
/** A first guess at one row's time, refined by every statement. */
const FIRST_MS_PER_ROW = 0.05;

/**
 * One batch: the next `$3` entries past the cutoff by the time index, after a cursor (so those
 * the policy protects are read once per prune, not again by every batch); of those, the ones
 * beyond the newest `min` of their webhook (one index lookup per webhook in the batch: the ID of
 * its newest min-th, MATERIALIZED: inlined, it was looked up again for every candidate, 5 ms each
 * on a database not yet analyzed) with no run queued or running are deleted, with all of their
 * rows. Never a window over the whole table: that took seconds per batch at a week's scale.
 * Data-modifying CTEs all run, whether or not the statement reads them.
 */
const PRUNE_BATCH = `
  WITH candidates AS (
    SELECT id, webhook_uid, received_at FROM deliveries
    WHERE received_at < $1 AND (received_at, id) > ($4::bigint, $5::text)
    ORDER BY received_at, id LIMIT $3),
  floors AS MATERIALIZED (
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

/** Expired identities, a batch per statement. */
const FORGET_KEYS = `
  DELETE FROM dedupe_keys WHERE ctid IN (
    SELECT ctid FROM dedupe_keys WHERE accepted_at < $1 LIMIT $2)`;

/**
 * retention.ts on PostgreSQL, with the same policy and pace rule (paced-slices.ts). The store
 * runs it under the 'retention' advisory lock (one replica at a time); `live` turns false as the
 * store closes, and the prune stops after its statement at hand (the next one goes on).
 */
export function createPostgresRetention(q: Queryable, live: () => boolean = () => true): Retention {
  const entries = new RowsPerBudget(FIRST_MS_PER_ROW, MIN_BATCH, MAX_ENTRIES);
  const keys = new RowsPerBudget(FIRST_MS_PER_ROW, MIN_BATCH, MAX_KEYS);
  return {
    /** Deletes what the policy no longer protects; returns how many deliveries went. */
    async prune(policy: RetentionPolicy, now: number): Promise<number> {
      const cutoff = pruneCutoff(policy, now);
      let removed = 0;
      // Before every entry: IDs are 'dlv_…', and '' sorts before them all.
      let cursor: { at: number | string; id: string } = { at: -1, id: '' };
      await pacedSlices(
        RETENTION_PACING,
        async (budgetMs) => {
          const limit = entries.rows(budgetMs);
          const started = performance.now();
          const { rows } = await q.query<{
            read: number;
            removed: number;
            at: string | null;
            id: string | null;
          }>(PRUNE_BATCH, [cutoff, policy.minPerWebhook, limit, cursor.at, cursor.id]);
          const batch = rows[0]!;
          entries.took(performance.now() - started, batch.read);
          removed += batch.removed;
          if (batch.read < limit || batch.at === null || batch.id === null) return false;
          cursor = { at: batch.at, id: batch.id };
          return true;
        },
        live,
      );
      const keyCutoff = now - policy.dedupeWindowMs;
      await pacedSlices(
        RETENTION_PACING,
        async (budgetMs) => {
          const limit = keys.rows(budgetMs);
          const started = performance.now();
          const { rowCount } = await q.query(FORGET_KEYS, [keyCutoff, limit]);
          keys.took(performance.now() - started, rowCount ?? 0);
          return (rowCount ?? 0) >= limit;
        },
        live,
      );
      return removed;
    },
  };
}
