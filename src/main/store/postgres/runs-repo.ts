import {
  toRecord,
  type NewRun,
  type RunRecord,
  type RunRef,
  type RunRow,
  type RunsRepository,
} from '../runs.js';
import type { Queryable } from './client.js';
import { postgresDialect } from './dialect.js';
import { postgresRepository, runCall } from './queries.js';
import { rerunCalls, runSelect, runsCalls } from '../sql/runs.js';
import { DB_NOW_MS } from './db-clock.js';
import { LeaseKeeper } from './lease-keeper.js';

/** The columns SQLite's runs-repo.ts reads, so that the one mapper (runs.ts) reads these rows too. */
const RECORD_COLUMNS = `
  r.*, a.name AS automation_name, a.factory_id AS factory_id, w.name AS webhook_name,
  (SELECT string_agg(x.id, ',' ORDER BY x.id) FROM runs x WHERE x.rerun_of = r.id) AS rerun_ids,
  (SELECT d.event_type FROM deliveries d WHERE d.id = r.delivery_id) AS event_type`;

/** The oldest queued runs of a factory that no other transaction is claiming right now. */
const PICK_QUEUED = `
  SELECT r.id FROM runs r JOIN automations a ON a.id = r.automation_id
  WHERE r.status = 'queued' AND a.factory_id = $1
  ORDER BY r.id LIMIT $2
  FOR UPDATE OF r SKIP LOCKED`;

export interface PostgresRunsOptions {
  /** This replica, as written in `runs.lease_owner`; unique per process. */
  replicaId: string;
  /** How long a claim or renewal holds a run, on the database's clock. */
  leaseMs: number;
  /** Where renewals run, when not on `q`: connections no management read can take. */
  renewOn?: Queryable;
}

/** Renews the leases of the runs this replica claimed, from `start` until `stop`. */
export interface RunLeases {
  start(events: {
    /** A run this replica runs was interrupted elsewhere (its lease had ended): stop it. */
    onLost: (runId: string) => void;
    /** A renewal failed; the next one tries again. */
    onError: (error: unknown) => void;
  }): void;
  stop(): void;
}

const SELECT = runSelect(postgresDialect);

const INSERT_RUNS = `
  INSERT INTO runs (id, automation_id, delivery_id, webhook_uid, status, input, created_at, rerun_of)
  SELECT id, automation_id, delivery_id, webhook_uid, 'queued', input, created_at, rerun_of
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::text[])
    AS n (id, automation_id, delivery_id, webhook_uid, input, created_at, rerun_of)`;

const insertParams = (runs: readonly NewRun[]): unknown[] => [
  runs.map((r) => r.id),
  runs.map((r) => r.automationId),
  runs.map((r) => r.deliveryId),
  runs.map((r) => r.webhookUid),
  runs.map((r) => r.input),
  runs.map((r) => r.createdAt),
  runs.map((r) => r.rerunOf),
];

/**
 * Runs on PostgreSQL, shared by replicas: SQLite's RunsRepository call for call, with what
 * replicas need on top. `claim` takes queued runs no other replica is taking (SKIP LOCKED) and
 * leases them to this replica; `leases` renews those leases while they run; `finish` records
 * only a run this replica still holds (or one still queued); `interruptRunning` ends only runs
 * whose lease has ended, so a replica starting never interrupts another live replica's runs,
 * and a dead replica's runs become interrupted once their lease ends, never run again.
 */
export function createPostgresRunsRepository(
  q: Queryable,
  { replicaId, leaseMs, renewOn = q }: PostgresRunsOptions,
): { runs: RunsRepository; leases: RunLeases } {
  const held = new Set<string>();
  let keeper: LeaseKeeper | null = null;
  const release = (id: string): void => {
    held.delete(id);
    keeper?.untrack(id);
  };

  const rows = async (sql: string, params: unknown[]): Promise<RunRow[]> =>
    (await q.query<RunRow>(sql, params)).rows;

  /** Extends this replica's leases; returns the runs it no longer holds (interrupted meanwhile). */
  const renew = async (runIds: readonly string[]): Promise<string[]> => {
    if (runIds.length === 0) return [];
    const { rows: kept } = await renewOn.query<{ id: string }>(
      `UPDATE runs SET lease_expires_at = ${DB_NOW_MS} + $2::BIGINT
       WHERE id = ANY($1::text[]) AND status = 'running' AND lease_owner = $3 RETURNING id`,
      [runIds, leaseMs, replicaId],
    );
    const still = new Set(kept.map((r) => r.id));
    return runIds.filter((id) => !still.has(id));
  };

  const leases: RunLeases = {
    start({ onLost, onError }) {
      keeper?.stop();
      keeper = new LeaseKeeper(
        { renew },
        {
          // A third of the lease leaves two renewals' worth of slack.
          intervalMs: Math.max(1, Math.floor(leaseMs / 3)),
          onLost: (id) => {
            held.delete(id);
            onLost(id);
          },
          onError,
        },
      );
      for (const id of held) keeper.track(id);
    },
    stop() {
      keeper?.stop();
      keeper = null;
    },
  };

  const runs: RunsRepository = {
    ...postgresRepository(q, runsCalls(postgresDialect)),
    async claim(factoryId, limit, now) {
      const claimed = await rows(
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
        [factoryId, limit, now, replicaId, leaseMs],
      );
      for (const row of claimed) {
        held.add(row.id);
        keeper?.track(row.id);
      }
      return claimed.map(toRecord);
    },
    /** The record executor's whole job: queued → succeeded for runs no other replica is taking. */
    async recordQueued(factoryId, limit, now) {
      const { rows: done } = await q.query<RunRef>(
        `WITH picked AS (${PICK_QUEUED})
         UPDATE runs r SET status = 'succeeded', started_at = $3, finished_at = $3
         FROM picked WHERE r.id = picked.id AND r.status = 'queued'
         RETURNING r.id, r.automation_id, r.delivery_id`,
        [factoryId, limit, now],
      );
      return done.sort((x, y) => (x.id < y.id ? -1 : 1));
    },
    /** A running run is finished only by the replica holding it: one that lost it changes nothing. */
    async finish(id, outcome, now) {
      await q.query(
        `UPDATE runs SET status = $2, finished_at = $3, exit_code = $4, output = $5, error = $6,
                         http_status = $7, lease_owner = NULL, lease_expires_at = NULL
         WHERE id = $1 AND (status = 'queued' OR (status = 'running' AND lease_owner = $8))`,
        [
          id,
          outcome.status,
          now,
          outcome.exitCode,
          outcome.output,
          outcome.error,
          outcome.httpStatus ?? null,
          replicaId,
        ],
      );
      release(id);
    },
    /** A claimed run whose input could not be read: back to the queue, and its lease let go. */
    async requeue(id) {
      await q.query(
        `UPDATE runs SET status = 'queued', started_at = NULL, process_group = NULL,
                         process_started = NULL, lease_owner = NULL, lease_expires_at = NULL
         WHERE id = $1 AND status = 'running' AND lease_owner = $2`,
        [id, replicaId],
      );
      release(id);
    },
    /**
     * This replica gives up on recording a run it claimed: its lease is no longer renewed, so
     * the run becomes `interrupted` once the lease ends (by any replica's sweep, this one's too).
     */
    letGo(id) {
      release(id);
      return Promise.resolve();
    },
    /**
     * Runs whose replica died: running, and their lease ended (on the database's clock). A live
     * replica's runs are never touched, nor this replica's own (a run whose outcome waits to be
     * written through an outage keeps its claim: it is written once the store is back). Each
     * gets the reason `reasonOf` gives.
     */
    async interruptRunning(reasonOf, now) {
      const ended = (
        await rows(
          `${SELECT} WHERE r.status = 'running' AND r.lease_expires_at < ${DB_NOW_MS}
             AND NOT r.id = ANY($1::text[])
           ORDER BY r.id`,
          [[...held]],
        )
      ).map(toRecord);
      if (ended.length === 0) return [];
      const reasons = new Map(ended.map((run) => [run.id, reasonOf(run)]));
      // The lease is checked again: a run renewed or interrupted meanwhile is left alone.
      const { rows: interrupted } = await q.query<{ id: string }>(
        `UPDATE runs SET status = 'interrupted', finished_at = $1, error = e.error,
                         lease_owner = NULL, lease_expires_at = NULL
         FROM unnest($2::text[], $3::text[]) AS e (id, error)
         WHERE runs.id = e.id AND runs.status = 'running' AND runs.lease_expires_at < ${DB_NOW_MS}
         RETURNING runs.id`,
        [now, [...reasons.keys()], [...reasons.values()]],
      );
      const done = new Set(interrupted.map((r) => r.id));
      for (const id of done) release(id);
      return ended
        .filter((run) => done.has(run.id))
        .map((run) => ({ ...run, status: 'interrupted' as const, error: reasons.get(run.id)! }));
    },
    /** When an automation is deleted its queued runs can no longer be placed: they fail. */
    async failQueuedOf(automationId, reason, now) {
      // The SELECT reads the rows as they were before the UPDATE of the same statement.
      const failed = await rows(
        `WITH failed AS (
           UPDATE runs SET status = 'failed', finished_at = $3, exit_code = NULL, output = NULL,
                           error = $2, http_status = NULL
           WHERE automation_id = $1 AND status = 'queued' RETURNING id)
         ${SELECT} WHERE r.id IN (SELECT id FROM failed) ORDER BY r.id`,
        [automationId, reason, now],
      );
      return failed.map((row): RunRecord => ({ ...toRecord(row), status: 'failed' }));
    },
    async insert(run) {
      await q.query(INSERT_RUNS, insertParams([run]));
    },
    /** Several runs in one statement (one commit), as a bulk re-run writes them. */
    async insertMany(many) {
      if (many.length > 0) await q.query(INSERT_RUNS, insertParams(many));
    },
    async rerunCandidates(filter, limit) {
      const calls = rerunCalls(postgresDialect, filter, limit);
      const [items, total, cannot] = await Promise.all([
        runCall(q, calls.items),
        runCall(q, calls.total),
        runCall(q, calls.cannot),
      ]);
      return { items, total, cannot };
    },
  };
  return { runs, leases };
}
