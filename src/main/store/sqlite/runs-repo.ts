import {
  type RunRow,
  type RunRecord,
  toRecord,
  type RunRef,
  type RunOutcome,
  type NewRun,
  type RerunCandidatesFilter,
  type RerunCandidates,
  type RunsRepository,
} from '../runs.js';
import type { Sync } from '../store.js';
import type { Db } from './db.js';
import { sqliteDialect } from './dialect.js';
import { queriesOn, sqliteRepository } from './queries.js';
import { rerunCalls, runSelect, runsCalls } from '../sql/runs.js';

const SELECT = runSelect(sqliteDialect);

/** Reads runs and moves them through their states; accepted runs are inserted by the delivery writer. */
export function createRunsRepository(db: Db): Sync<RunsRepository> {
  const queries = queriesOn(db);
  const queuedIn = db.prepare<[string, number], RunRow>(`${SELECT}
    WHERE r.status = 'queued' AND a.factory_id = ? ORDER BY r.id LIMIT ?`);
  const markRunning = db.prepare(
    "UPDATE runs SET status = 'running', started_at = ? WHERE id = ? AND status = 'queued'",
  );
  const finish = db.prepare(`
    UPDATE runs SET status = @status, finished_at = @finishedAt, exit_code = @exitCode,
                    output = @output, error = @error, http_status = @httpStatus
    WHERE id = @id AND status IN ('queued', 'running')`);
  const recordDone = db.prepare<{ factoryId: string; limit: number; now: number }, RunRef>(`
    UPDATE runs SET status = 'succeeded', started_at = @now, finished_at = @now
    WHERE id IN (
      SELECT r.id FROM runs r JOIN automations a ON a.id = r.automation_id
      WHERE r.status = 'queued' AND a.factory_id = @factoryId ORDER BY r.id LIMIT @limit)
    RETURNING id, automation_id, delivery_id`);
  const requeue = db.prepare(`
    UPDATE runs SET status = 'queued', started_at = NULL, process_group = NULL,
                    process_started = NULL
    WHERE id = ? AND status = 'running'`);
  const runningIds = db.prepare<[], RunRow>(`${SELECT} WHERE r.status = 'running'`);
  const interrupt = db.prepare(`
    UPDATE runs SET status = 'interrupted', finished_at = ?, error = ? WHERE id = ? AND status = 'running'`);
  const queuedOfAutomation = db.prepare<[string], RunRow>(
    `${SELECT} WHERE r.automation_id = ? AND r.status = 'queued'`,
  );
  const insert = db.prepare(`
    INSERT INTO runs (id, automation_id, delivery_id, webhook_uid, status, input, created_at, rerun_of)
    VALUES (@id, @automationId, @deliveryId, @webhookUid, 'queued', @input, @createdAt, @rerunOf)`);
  const claim = db.transaction((factoryId: string, limit: number, now: number): RunRecord[] => {
    const rows = queuedIn.all(factoryId, limit);
    for (const row of rows) markRunning.run(now, row.id);
    return rows.map((row) => ({ ...toRecord(row), status: 'running' as const, startedAt: now }));
  });

  return {
    ...sqliteRepository(db, runsCalls(sqliteDialect)),
    /** Oldest queued runs of a factory, marked running in one transaction (one fsync). */
    claim: (factoryId: string, limit: number, now: number): RunRecord[] =>
      claim(factoryId, limit, now),
    /** The record executor's whole job: queued → succeeded for a batch, in one transaction. */
    /**
     * The record executor's whole job: queued → succeeded for a batch, in one statement. Written
     * with synchronous=NORMAL: in WAL mode that skips this commit's fsync but never its order, so
     * the next delivery's commit makes it durable; a power cut before that leaves the runs queued
     * and they are recorded again at start, which for `record` (it runs nothing) changes nothing.
     */
    recordQueued: (factoryId: string, limit: number, now: number): RunRef[] => {
      db.pragma('synchronous = NORMAL');
      try {
        return recordDone.all({ factoryId, limit, now });
      } finally {
        db.pragma('synchronous = FULL');
      }
    },
    finish: (id: string, outcome: RunOutcome, now: number): void => {
      finish.run({ id, finishedAt: now, ...outcome, httpStatus: outcome.httpStatus ?? null });
    },
    /** A claimed run whose input could not be read: back to the queue, as if never claimed. */
    requeue: (id: string): void => {
      requeue.run(id);
    },
    /**
     * This relay gives up on recording a run it claimed. SQLite has no leases: the run stays
     * `running` until the next start marks it interrupted.
     */
    letGo: (_id: string): void => undefined,
    /**
     * At start: whatever was running when the relay died is interrupted, never resumed; each
     * with the reason `reasonOf` gives (which may first deal with a program left running).
     */
    interruptRunning: db.transaction(
      (reasonOf: (run: RunRecord) => string, now: number): RunRecord[] =>
        runningIds.all().map((row) => {
          const run = toRecord(row);
          const error = reasonOf(run);
          interrupt.run(now, error, run.id);
          return { ...run, status: 'interrupted' as const, error };
        }),
    ),
    /** When an automation is deleted its queued runs can no longer be placed: they fail. */
    failQueuedOf: db.transaction(
      (automationId: string, reason: string, now: number): RunRecord[] => {
        const rows = queuedOfAutomation.all(automationId);
        for (const row of rows) {
          finish.run({
            id: row.id,
            status: 'failed',
            finishedAt: now,
            exitCode: null,
            output: null,
            error: reason,
            httpStatus: null,
          });
        }
        return rows.map((row) => ({ ...toRecord(row), status: 'failed' as const }));
      },
    ),
    insert: (run: NewRun): void => {
      insert.run(run);
    },
    /** Several runs in one transaction (one fsync), as a bulk re-run writes them. */
    insertMany: db.transaction((runs: readonly NewRun[]): void => {
      for (const run of runs) insert.run(run);
    }),
    rerunCandidates: (filter: RerunCandidatesFilter, limit: number): RerunCandidates => {
      const calls = rerunCalls(sqliteDialect, filter, limit);
      return {
        items: queries.run(calls.items),
        total: queries.run(calls.total),
        cannot: queries.run(calls.cannot),
      };
    },
  };
}
