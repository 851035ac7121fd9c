import { encodeTime } from 'ulid';
import type { RunStatus } from '../../shared/contract/runs.js';
import type { RunProcess } from '../runs/run-process.js';

export interface RunRecord {
  id: string;
  automationId: string;
  automationName: string | null;
  /** The automation's factory; null once the automation was deleted. */
  factoryId: string | null;
  deliveryId: string;
  webhookUid: string;
  webhookName: string | null;
  status: RunStatus;
  /** PROMPT.md. */
  input: string;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  exitCode: number | null;
  output: string | null;
  error: string | null;
  rerunOf: string | null;
  /** Runs that re-run this one, oldest first. */
  reruns: string[];
  /** The last HTTP status the executor's URL answered (http executor only). */
  httpStatus: number | null;
  /** A `command` run's program, recorded as it started; null for other executors. */
  process: RunProcess | null;
}

export interface RunRow {
  id: string;
  automation_id: string;
  automation_name: string | null;
  factory_id: string | null;
  delivery_id: string;
  webhook_uid: string;
  webhook_name: string | null;
  status: RunStatus;
  input: string;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  exit_code: number | null;
  output: string | null;
  error: string | null;
  rerun_of: string | null;
  rerun_ids: string | null;
  http_status: number | null;
  process_group: number | null;
  process_started: string | null;
}

/** Maps both stores' rows (postgres/runs-repo.ts reads the same columns): they cannot drift. */
export const toRecord = (r: RunRow): RunRecord => ({
  id: r.id,
  automationId: r.automation_id,
  automationName: r.automation_name,
  factoryId: r.factory_id,
  deliveryId: r.delivery_id,
  webhookUid: r.webhook_uid,
  webhookName: r.webhook_name,
  status: r.status,
  input: r.input,
  createdAt: r.created_at,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  exitCode: r.exit_code,
  output: r.output,
  error: r.error,
  rerunOf: r.rerun_of,
  reruns: r.rerun_ids ? r.rerun_ids.split(',').sort() : [],
  httpStatus: r.http_status,
  process: r.process_group === null ? null : { group: r.process_group, started: r.process_started },
});

/** Enough of a run to announce it. */
export interface RunRef {
  id: string;
  automation_id: string;
  delivery_id: string;
}

/** How a run ended, as the dispatcher writes it. */
export interface RunOutcome {
  status: Extract<RunStatus, 'succeeded' | 'failed' | 'interrupted'>;
  exitCode: number | null;
  output: string | null;
  error: string | null;
  /** The last HTTP status the executor's URL answered (http executor only). */
  httpStatus?: number | null;
}

export interface NewRun {
  id: string;
  automationId: string;
  deliveryId: string;
  webhookUid: string;
  input: string;
  createdAt: number;
  rerunOf: string | null;
}
/** Run IDs are ULIDs of their delivery's time, so "since" is a range on the primary key. */
export const firstRunIdAt = (ms: number): string =>
  `run_${encodeTime(Math.max(0, ms), 10)}0000000000000000`;

export interface RerunCandidatesFilter {
  status: RunStatus;
  automation: string | null;
  since: number | null;
}

/**
 * Runs in a status not re-run yet: those that can be (`items`, oldest first, and how many in
 * all), and those that cannot (`cannot`, oldest first: their automation was deleted or their
 * payload pruned). Apart, so that old runs that cannot be re-run never fill a call's page.
 */
export interface RerunCandidates {
  items: RunRecord[];
  total: number;
  cannot: RunRecord[];
}

/** What a run needs to be re-run (its row joined as `r`, its automation as `a`), in both dialects. */
export const RERUNNABLE = `a.factory_id IS NOT NULL
  AND EXISTS (SELECT 1 FROM payloads p WHERE p.delivery_id = r.delivery_id)`;

/** Reads runs and moves them through their states; accepted runs are inserted by the delivery writer. */
export interface RunsRepository {
  get(id: string): Promise<RunRecord | null>;
  /** Newest first; `before` is the ID of the last run of the previous page. */
  page(filter: {
    automation: string | null;
    status: RunStatus | null;
    before: string | null;
    limit: number;
  }): Promise<{ items: RunRecord[]; nextBefore: string | null }>;
  factoriesWithQueuedRuns(): Promise<string[]>;
  /** Oldest queued runs of a factory, marked running in one transaction (one fsync). */
  claim(factoryId: string, limit: number, now: number): Promise<RunRecord[]>;
  /** The record executor's whole job: queued → succeeded for a batch, in one statement. */
  recordQueued(factoryId: string, limit: number, now: number): Promise<RunRef[]>;
  finish(id: string, outcome: RunOutcome, now: number): Promise<void>;
  /** A claimed run whose input could not be read: back to the queue, as if never claimed. */
  requeue(id: string): Promise<void>;
  /** This relay gives up on recording a run it claimed (on PostgreSQL, its lease ends now). */
  letGo(id: string): Promise<void>;
  /**
   * Whatever was running when its relay died is interrupted, never resumed; each with the
   * reason `reasonOf` gives (which may first deal with a program left running).
   */
  interruptRunning(reasonOf: (run: RunRecord) => string, now: number): Promise<RunRecord[]>;
  /** A `command` run's program has started: where to find it if the relay dies meanwhile. */
  recordProcess(id: string, started: RunProcess): Promise<void>;
  /** When an automation is deleted its queued runs can no longer be placed: they fail. */
  failQueuedOf(automationId: string, reason: string, now: number): Promise<RunRecord[]>;
  insert(run: NewRun): Promise<void>;
  /** Several runs in one transaction (one fsync), as a bulk re-run writes them. */
  insertMany(runs: readonly NewRun[]): Promise<void>;
  countSince(automationId: string, since: number): Promise<number>;
  payloadOf(deliveryId: string): Promise<Buffer | null>;
  rerunCandidates(filter: RerunCandidatesFilter, limit: number): Promise<RerunCandidates>;
  /** The delivery's event type (§13), for the executors; null when unknown. */
  eventTypeOf(deliveryId: string): Promise<string | null>;
}
