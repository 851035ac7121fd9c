import {
  type RunRow,
  type RunRecord,
  toRecord,
  type RunRef,
  type RunOutcome,
  type NewRun,
  firstRunIdAt,
  type RerunCandidatesFilter,
  type RerunCandidates,
  RERUNNABLE,
  type RunsRepository,
} from '../runs.js';
import type { Sync } from '../store.js';
import type { RunStatus } from '../../../shared/contract/runs.js';
import type { RunProcess } from '../../runs/run-process.js';
import type { Db } from './db.js';

const SELECT = `
  SELECT r.*, a.name AS automation_name, a.factory_id AS factory_id, w.name AS webhook_name,
    (SELECT group_concat(x.id) FROM runs x WHERE x.rerun_of = r.id) AS rerun_ids
  FROM runs r
  LEFT JOIN automations a ON a.id = r.automation_id
  LEFT JOIN webhooks w ON w.uid = r.webhook_uid`;

interface RerunFilter {
  status: RunStatus;
  automation: string | null;
  fromId: string;
}

/** Reads runs and moves them through their states; accepted runs are inserted by the delivery writer. */
export function createRunsRepository(db: Db): Sync<RunsRepository> {
  const one = db.prepare<[string], RunRow>(`${SELECT} WHERE r.id = ?`);
  const page = db.prepare<
    { automation: string | null; status: string | null; before: string | null; limit: number },
    RunRow
  >(`${SELECT}
    WHERE (@automation IS NULL OR r.automation_id = @automation)
      AND (@status IS NULL OR r.status = @status)
      AND (@before IS NULL OR r.id < @before)
    ORDER BY r.id DESC LIMIT @limit`);
  const queuedFactories = db.prepare<[], { factory_id: string }>(`
    SELECT DISTINCT a.factory_id FROM runs r JOIN automations a ON a.id = r.automation_id
    WHERE r.status = 'queued'`);
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
  const recordProcess = db.prepare(
    'UPDATE runs SET process_group = ?, process_started = ? WHERE id = ?',
  );
  const queuedOfAutomation = db.prepare<[string], RunRow>(
    `${SELECT} WHERE r.automation_id = ? AND r.status = 'queued'`,
  );
  const insert = db.prepare(`
    INSERT INTO runs (id, automation_id, delivery_id, webhook_uid, status, input, created_at, rerun_of)
    VALUES (@id, @automationId, @deliveryId, @webhookUid, 'queued', @input, @createdAt, @rerunOf)`);
  const countSince = db.prepare<[string, string], { n: number }>(
    'SELECT count(*) AS n FROM runs WHERE automation_id = ? AND id >= ?',
  );
  const payload = db.prepare<[string], { body: Buffer }>(
    'SELECT body FROM payloads WHERE delivery_id = ?',
  );
  const NOT_RERUN = `r.status = @status AND (@automation IS NULL OR r.automation_id = @automation)
      AND r.id >= @fromId AND NOT EXISTS (SELECT 1 FROM runs x WHERE x.rerun_of = r.id)`;
  const rerunCandidates = db.prepare<RerunFilter & { limit: number }, RunRow>(
    `${SELECT} WHERE ${NOT_RERUN} AND ${RERUNNABLE} ORDER BY r.id LIMIT @limit`,
  );
  const countRerunCandidates = db.prepare<RerunFilter, { n: number }>(
    `SELECT count(*) AS n FROM runs r LEFT JOIN automations a ON a.id = r.automation_id
     WHERE ${NOT_RERUN} AND ${RERUNNABLE}`,
  );
  const unrerunnable = db.prepare<RerunFilter & { limit: number }, RunRow>(
    `${SELECT} WHERE ${NOT_RERUN} AND NOT (${RERUNNABLE}) ORDER BY r.id LIMIT @limit`,
  );
  const eventType = db.prepare<[string], { event_type: string | null }>(
    'SELECT event_type FROM deliveries WHERE id = ?',
  );

  const claim = db.transaction((factoryId: string, limit: number, now: number): RunRecord[] => {
    const rows = queuedIn.all(factoryId, limit);
    for (const row of rows) markRunning.run(now, row.id);
    return rows.map((row) => ({ ...toRecord(row), status: 'running' as const, startedAt: now }));
  });

  return {
    get: (id: string): RunRecord | null => {
      const row = one.get(id);
      return row ? toRecord(row) : null;
    },
    /** Newest first; `before` is the ID of the last run of the previous page. */
    page: (filter: {
      automation: string | null;
      status: RunStatus | null;
      before: string | null;
      limit: number;
    }): { items: RunRecord[]; nextBefore: string | null } => {
      const rows = page.all({ ...filter, limit: filter.limit + 1 });
      const items = rows.slice(0, filter.limit).map(toRecord);
      const more = rows.length > filter.limit;
      return { items, nextBefore: more ? items[items.length - 1]!.id : null };
    },
    factoriesWithQueuedRuns: (): string[] => queuedFactories.all().map((r) => r.factory_id),
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
    /** A `command` run's program has started: where to find it if the relay dies meanwhile. */
    recordProcess: (id: string, started: RunProcess): void => {
      recordProcess.run(started.group, started.started, id);
    },
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
    countSince: (automationId: string, since: number): number =>
      countSince.get(automationId, firstRunIdAt(since))!.n,
    payloadOf: (deliveryId: string): Buffer | null => payload.get(deliveryId)?.body ?? null,
    rerunCandidates: (filter: RerunCandidatesFilter, limit: number): RerunCandidates => {
      const params: RerunFilter = {
        status: filter.status,
        automation: filter.automation,
        fromId: firstRunIdAt(filter.since ?? 0),
      };
      return {
        items: rerunCandidates.all({ ...params, limit }).map(toRecord),
        total: countRerunCandidates.get(params)!.n,
        cannot: unrerunnable.all({ ...params, limit }).map(toRecord),
      };
    },
    /** The delivery's event type (§13), for the executors; null when unknown. */
    eventTypeOf: (deliveryId: string): string | null =>
      eventType.get(deliveryId)?.event_type ?? null,
  };
}
