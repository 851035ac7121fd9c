import { describeError, type Logger } from '../log.js';
import type { RunOutcome, RunRecord, RunsRepository } from '../store/runs.js';
import { failed, type ExecutionResult } from './executors/types.js';
import { INTERRUPTED_BY_STOP } from './interrupted.js';
import {
  PendingRunWrites,
  systemClock,
  type RetryClock,
  type RunWrite,
} from './pending-run-writes.js';

/** A claimed run whose input cannot be read goes back to the queue this many times, then fails. */
export const INPUT_READ_TRIES = 3;

/** The input of a claimed run could not be read (the store did not answer): nothing ran. */
export class InputUnread {
  constructor(readonly error: unknown) {}
}

export interface RunRecorderDeps {
  runs: Pick<RunsRepository, 'finish' | 'requeue' | 'letGo'>;
  log: Logger;
  now: () => number;
  clock?: RetryClock;
  /** A run's new status is recorded. */
  recorded: (run: RunRecord, status: RunRecord['status']) => void;
  /** A run went back to the queue. */
  requeued: () => void;
}

/**
 * Records how the dispatcher's runs end, through an outage: each write waits in memory
 * (pending-run-writes.ts) until the store answers, and the run stays claimed by this relay
 * meanwhile. A run whose input could not be read goes back to the queue (nothing ran: it runs
 * once the store answers, as it would have had the outage come a moment earlier), up to
 * INPUT_READ_TRIES times; then it fails with the reason, so that a store that answers claims
 * but never reads cannot keep it circling.
 */
export class RunRecorder {
  /** Runs whose write is under way or waiting, with what their log line says. */
  private readonly recording = new Map<string, { run: RunRecord; kind: string }>();
  private readonly unreadInputs = new Map<string, number>();
  private readonly writes: PendingRunWrites;

  constructor(private readonly deps: RunRecorderDeps) {
    this.writes = new PendingRunWrites({
      store: {
        finish: (id, outcome, at) => deps.runs.finish(id, outcome, at),
        requeue: (id) => deps.runs.requeue(id),
      },
      clock: deps.clock ?? systemClock,
      onWritten: (write, attempts) => this.written(write, attempts),
      onWaiting: (write, error, waiting) =>
        deps.log.error(
          `[runs] could not record ${write.runId} (${write.kind}): ${describeError(error)}; kept in memory and retried until the store answers (${waiting} waiting)`,
        ),
      onDropped: (write) => {
        this.recording.delete(write.runId);
        deps.log.error(
          `[runs] could not record ${write.runId} (${write.kind}), and too many writes already wait; its lease is let go (it ends interrupted)`,
        );
        deps.runs.letGo(write.runId).catch(() => undefined);
      },
    });
  }

  /** Writes waiting for the store. */
  get waiting(): number {
    return this.writes.size;
  }

  /** The input of a run was read: a later failure to read it starts a new count. */
  inputRead(runId: string): void {
    this.unreadInputs.delete(runId);
  }

  /** Resolves once written, or once waiting in memory for the store. */
  record(
    run: RunRecord,
    kind: string,
    result: ExecutionResult | InputUnread,
    stopped: boolean,
  ): Promise<void> {
    const at = this.deps.now();
    this.recording.set(run.id, { run, kind });
    let ended: ExecutionResult;
    if (result instanceof InputUnread) {
      const tries = (this.unreadInputs.get(run.id) ?? 0) + 1;
      this.unreadInputs.set(run.id, tries);
      if (tries < INPUT_READ_TRIES && !stopped) {
        return this.writes.submit({ kind: 'requeue', runId: run.id, at });
      }
      this.unreadInputs.delete(run.id);
      ended = failed(
        `its input (the payload of ${run.deliveryId}) could not be read, ${tries} time(s): ${describeError(result.error)}`,
      );
    } else {
      ended = result;
    }
    const outcome: RunOutcome = stopped
      ? { ...ended, status: 'interrupted', error: INTERRUPTED_BY_STOP }
      : ended;
    return this.writes.submit({ kind: 'finish', runId: run.id, outcome, at });
  }

  /** One last try of what waits (the relay is stopping); unwritten, it ends interrupted. */
  async stop(): Promise<void> {
    await this.writes.stop();
    if (this.writes.size > 0) {
      this.deps.log.error(
        `[runs] ${this.writes.size} run outcome(s) could not be recorded before stopping; they end interrupted`,
      );
    }
  }

  private written(write: RunWrite, attempts: number): void {
    const recorded = this.recording.get(write.runId);
    this.recording.delete(write.runId);
    if (!recorded) return;
    const { run, kind } = recorded;
    if (write.kind === 'requeue') {
      this.deps.log.warn(`[runs] ${run.id} went back to the queue: its input could not be read`);
      this.deps.recorded(run, 'queued');
      this.deps.requeued();
      return;
    }
    const { outcome } = write;
    const seconds = ((write.at - (run.startedAt ?? write.at)) / 1000).toFixed(1);
    const why = outcome.error ? `: ${outcome.error}` : '';
    const late = attempts > 1 ? ` (recorded once the store answered, after ${attempts} tries)` : '';
    this.deps.log.info(`[runs] ${run.id} ${outcome.status} (${kind}, ${seconds} s)${why}${late}`);
    this.deps.recorded(run, outcome.status);
  }
}
