import { toRecord, type RunOutcome, type RunRecord, type RunRef } from '../runs-repo.js';
import { withTransaction } from './client.js';
import { DB_NOW_MS } from './db-clock.js';
import type { PgPool } from './pool.js';

export interface RunClaimsOptions {
  /** This replica, as written in `runs.lease_owner`; unique per process. */
  owner: string;
  /** How long a claim or renewal holds a run, on the database's clock. */
  leaseMs: number;
}

export type RunRow = Parameters<typeof toRecord>[0];

/** The columns runs-repo.ts reads on SQLite, so that its mapper reads these rows too. */
export const RECORD_COLUMNS = `
  r.*, a.name AS automation_name, a.factory_id AS factory_id, w.name AS webhook_name,
  (SELECT string_agg(x.id, ',' ORDER BY x.id) FROM runs x WHERE x.rerun_of = r.id) AS rerun_ids,
  (SELECT d.event_type FROM deliveries d WHERE d.id = r.delivery_id) AS event_type`;

/** The oldest queued runs of a factory that no other transaction is claiming right now. */
export const PICK_QUEUED = `
  SELECT r.id FROM runs r JOIN automations a ON a.id = r.automation_id
  WHERE r.status = 'queued' AND a.factory_id = $1
  ORDER BY r.id LIMIT $2
  FOR UPDATE OF r SKIP LOCKED`;

export type RunClaims = ReturnType<typeof createPostgresRunClaims>;

/**
 * Runs across replicas: a run is claimed by one replica (`FOR UPDATE SKIP LOCKED`: two claimers
 * skip each other's rows instead of waiting or taking them twice), holds a lease that the
 * replica renews while the run executes, and is finished only by the lease's owner. A run whose
 * lease ended while `running` is marked `interrupted` by whichever replica sees it first, and is
 * never claimed again: nothing runs twice automatically.
 */
export function createPostgresRunClaims(pool: PgPool, { owner, leaseMs }: RunClaimsOptions) {
  return {
    owner,
    /** Up to `limit` of a factory's oldest queued runs, now running here under a lease. */
    async claim(factoryId: string, limit: number, now: number): Promise<RunRecord[]> {
      const { rows } = await pool.query<RunRow>(
        `WITH picked AS (${PICK_QUEUED}),
         claimed AS (
           UPDATE runs r SET status = 'running', started_at = $3, lease_owner = $4,
                             lease_expires_at = ${DB_NOW_MS} + $5::BIGINT
           FROM picked WHERE r.id = picked.id AND r.status = 'queued'
           RETURNING r.*)
         SELECT ${RECORD_COLUMNS} FROM claimed r
         LEFT JOIN automations a ON a.id = r.automation_id
         LEFT JOIN webhooks w ON w.uid = r.webhook_uid
         ORDER BY r.id`,
        [factoryId, limit, now, owner, leaseMs],
      );
      return rows.map(toRecord);
    },

    /**
     * The record executor's whole job, queued → succeeded, for runs no other replica is taking.
     * Committed without waiting for its flush (as SQLite's synchronous=NORMAL there): the next
     * durable commit flushes it; lost in a crash, the runs are recorded again, which for
     * `record` changes nothing.
     */
    async recordQueued(factoryId: string, limit: number, now: number): Promise<RunRef[]> {
      const rows = await withTransaction(pool, async (client) => {
        await client.query('SET LOCAL synchronous_commit = off');
        const result = await client.query<RunRef>(
          `WITH picked AS (${PICK_QUEUED})
           UPDATE runs r SET status = 'succeeded', started_at = $3, finished_at = $3
           FROM picked WHERE r.id = picked.id AND r.status = 'queued'
           RETURNING r.id, r.automation_id, r.delivery_id`,
          [factoryId, limit, now],
        );
        return result.rows;
      });
      return rows.sort((x, y) => (x.id < y.id ? -1 : 1));
    },

    /** Extends this replica's leases; returns the runs it no longer holds (interrupted meanwhile). */
    async renew(runIds: readonly string[]): Promise<string[]> {
      if (runIds.length === 0) return [];
      const { rows } = await pool.query<{ id: string }>(
        `UPDATE runs SET lease_expires_at = ${DB_NOW_MS} + $2::BIGINT
         WHERE id = ANY($1::text[]) AND status = 'running' AND lease_owner = $3
         RETURNING id`,
        [runIds, leaseMs, owner],
      );
      const kept = new Set(rows.map((r) => r.id));
      return runIds.filter((id) => !kept.has(id));
    },

    /** Records how a run ended; false if this replica no longer held it (it was interrupted). */
    async finish(id: string, outcome: RunOutcome, now: number): Promise<boolean> {
      const result = await pool.query(
        `UPDATE runs SET status = $2, finished_at = $3, exit_code = $4, output = $5, error = $6,
                         http_status = $8, lease_owner = NULL, lease_expires_at = NULL
         WHERE id = $1 AND status = 'running' AND lease_owner = $7`,
        [
          id,
          outcome.status,
          now,
          outcome.exitCode,
          outcome.output,
          outcome.error,
          owner,
          outcome.httpStatus ?? null,
        ],
      );
      return result.rowCount === 1;
    },

    /** Any replica, now and then: running runs whose lease ended (their replica died). */
    async interruptExpired(reason: string, now: number): Promise<RunRecord[]> {
      const { rows } = await pool.query<RunRow>(
        `WITH ended AS (
           UPDATE runs SET status = 'interrupted', finished_at = $1, error = $2,
                           lease_owner = NULL, lease_expires_at = NULL
           WHERE status = 'running' AND lease_expires_at < ${DB_NOW_MS}
           RETURNING *)
         SELECT ${RECORD_COLUMNS} FROM ended r
         LEFT JOIN automations a ON a.id = r.automation_id
         LEFT JOIN webhooks w ON w.uid = r.webhook_uid
         ORDER BY r.id`,
        [now, reason],
      );
      return rows.map(toRecord);
    },
  };
}
