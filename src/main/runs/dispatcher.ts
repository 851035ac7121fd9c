import type { ExecutorConfig } from '../../shared/contract/executors.js';
import type { EventBus } from '../events.js';
import { describeError, type Logger } from '../log.js';
import type { RunRecord, RunsRepository } from '../store/runs.js';
import { executeCommand } from './executors/command.js';
import { executeHttp } from './executors/http.js';
import { failed, type ExecutionResult, type RunJob } from './executors/types.js';
import { stillRunning, stopProcessGroup } from './run-process.js';
import { INTERRUPTED_BY_CRASH } from './interrupted.js';
import { LiveOutput } from './live-output.js';
import type { RetryClock } from './pending-run-writes.js';
import { InputUnread, RunRecorder } from './run-recorder.js';

/** Record runs are finished in batches of this many per transaction. */
const RECORD_BATCH = 500;
/** The least time between two looks at the queue; a run waits at most this long to start. */
const MIN_PUMP_INTERVAL_MS = 50;

/** What a crash left running whose program was still running at the next start, and was stopped. */
export const interruptedAndStopped = (group: number): string =>
  `the relay stopped while this run was running; its program (process group ${group}) was still running when the relay started again, and was stopped; it is not re-run automatically (Re-run it by hand)`;
export { INTERRUPTED_BY_STOP } from './interrupted.js';

export interface DispatcherDeps {
  runs: RunsRepository;
  /** The factory's executor config; rejects when it cannot be read. */
  executorOf: (factoryId: string) => Promise<ExecutorConfig | null>;
  events: EventBus;
  dataDir: string;
  log: Logger;
  now: () => number;
  /** Timers of the retries of outcome writes (tests move time by hand). */
  retryClock?: RetryClock;
  /** A `command` run's MCP access (§21 mcpForRuns): opened as it starts, closed as it ends. */
  mcpAccess?: {
    open(factoryId: string, runId: string): Promise<{ url: string; token: string } | null>;
    close(runId: string): void;
  };
}

/**
 * Moves queued runs to an executor and records how they end. It is woken by every commit that
 * queued runs and once at start; it never holds a run in memory that is not `running` in SQLite,
 * so a crash leaves queued runs queued and running ones to be marked interrupted at the next start.
 */
export class RunDispatcher {
  private readonly active = new Map<string, number>();
  private readonly inFlight = new Map<string, { abort: AbortController; done: Promise<void> }>();
  private timer: NodeJS.Timeout | null = null;
  private lastPumpAt = 0;
  private started = false;
  private stopped = false;
  /** A look at the queue is under way; a wake meanwhile asks for another once it ends. */
  private pumping = false;
  private wokenWhilePumping = false;
  private pumped: Promise<void> = Promise.resolve();
  private readonly badConfigLogged = new Set<string>();
  private readonly live = new LiveOutput((runId) =>
    this.deps.events.emit({ type: 'run-output', runId }),
  );

  private readonly recorder: RunRecorder;

  constructor(private readonly deps: DispatcherDeps) {
    this.recorder = new RunRecorder({
      runs: deps.runs,
      log: deps.log,
      now: deps.now,
      clock: deps.retryClock,
      recorded: (run, status) => this.emit(run, status),
      requeued: () => this.wake(),
    });
  }

  /** Run outcomes waiting in memory for the store to answer. */
  get unrecorded(): number {
    return this.recorder.waiting;
  }

  /** What a run still executing has printed so far; null once it finished (or never printed). */
  liveOutput(runId: string): string | null {
    return this.live.text(runId);
  }

  /**
   * Marks what a crash left `running` as interrupted, stopping a `command` run's program that is
   * still running (it may be doing the run's work with nobody to record it), then starts on the
   * queue.
   */
  async start(): Promise<void> {
    this.started = true;
    const interrupted = await this.deps.runs.interruptRunning(
      (run) => this.interruptedReason(run, INTERRUPTED_BY_CRASH),
      this.deps.now(),
    );
    if (interrupted.length > 0) {
      this.deps.log.warn(
        `[runs] ${interrupted.length} run(s) were running when the relay stopped; marked interrupted`,
      );
    }
    for (const run of interrupted) this.emit(run, 'interrupted');
    this.wake();
  }

  /**
   * Why a run left `running` by a relay that is gone is interrupted: `otherwise`, or, when its
   * program still runs on this machine (the same process group leader, started at the same
   * moment), that the program was stopped here, which it is.
   */
  interruptedReason(
    run: RunRecord,
    otherwise: string,
    stopped: (group: number) => string = interruptedAndStopped,
  ): string {
    if (!run.process || !stillRunning(run.process)) return otherwise;
    stopProcessGroup(run.process.group);
    this.deps.log.warn(
      `[runs] ${run.id}: its program (process group ${run.process.group}) outlived the relay; stopping it`,
    );
    return stopped(run.process.group);
  }

  /**
   * Asks for a look at the queue soon; many wakes cost one look. Looks are at least
   * MIN_PUMP_INTERVAL_MS apart, so under a burst of deliveries the queue is read (and record
   * runs are finished, one fsync each time) a bounded number of times per second, not once per
   * commit. Ignored before start.
   */
  wake(): void {
    if (!this.started || this.stopped || this.timer) return;
    if (this.pumping) {
      this.wokenWhilePumping = true;
      return;
    }
    const wait = Math.max(0, this.lastPumpAt + MIN_PUMP_INTERVAL_MS - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      this.lastPumpAt = Date.now();
      this.pumped = this.pump();
    }, wait);
  }

  /**
   * Another relay on the store ended this run (this relay's lease on it had lapsed): stop
   * executing it. Its record stays as that relay wrote it.
   */
  abandon(runId: string): void {
    const running = this.inFlight.get(runId);
    if (!running) return;
    this.deps.log.warn(
      `[runs] ${runId}: another relay ended this run (its lease lapsed); stopping it here`,
    );
    running.abort.abort();
  }

  /** Stops taking runs; runs still executing are ended and marked interrupted. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    // A look under way may still claim runs: they start, and are ended with the others.
    await this.pumped;
    for (const { abort } of this.inFlight.values()) abort.abort();
    await Promise.all([...this.inFlight.values()].map((f) => f.done));
    await this.recorder.stop();
  }

  /** One look at the queue at a time, so that two never claim past a factory's concurrency. */
  private async pump(): Promise<void> {
    if (this.stopped) return;
    this.pumping = true;
    try {
      for (const factoryId of await this.deps.runs.factoriesWithQueuedRuns()) {
        if (this.stopped) break;
        await this.pumpFactory(factoryId);
      }
    } catch (error) {
      this.deps.log.error(`[runs] could not read the queue: ${describeError(error)}`);
    } finally {
      this.pumping = false;
    }
    if (this.wokenWhilePumping) {
      this.wokenWhilePumping = false;
      this.wake();
    }
  }

  private async pumpFactory(factoryId: string): Promise<void> {
    const config = await this.configOf(factoryId);
    if (!config) return;
    if (config.kind === 'record') {
      // Nothing to execute: queued → succeeded for a whole batch in one transaction (one fsync).
      const done = await this.deps.runs.recordQueued(factoryId, RECORD_BATCH, this.deps.now());
      for (const run of done) {
        this.emit(
          { id: run.id, automationId: run.automation_id, deliveryId: run.delivery_id },
          'succeeded',
        );
      }
      if (done.length === RECORD_BATCH) this.wake();
      return;
    }
    const free = config.concurrency - (this.active.get(factoryId) ?? 0);
    if (free <= 0) return;
    for (const run of await this.deps.runs.claim(factoryId, free, this.deps.now())) {
      this.execute(run, factoryId, config);
    }
  }

  private async configOf(factoryId: string): Promise<ExecutorConfig | null> {
    try {
      const config = await this.deps.executorOf(factoryId);
      this.badConfigLogged.delete(factoryId);
      return config;
    } catch (error) {
      // Left queued rather than guessed at; logged once until the config is fixed.
      if (!this.badConfigLogged.has(factoryId)) {
        this.badConfigLogged.add(factoryId);
        this.deps.log.error(`[runs] runs of factory "${factoryId}" wait: ${describeError(error)}`);
      }
      return null;
    }
  }

  private execute(
    run: RunRecord,
    factoryId: string,
    config: Exclude<ExecutorConfig, { kind: 'record' }>,
  ): void {
    this.active.set(factoryId, (this.active.get(factoryId) ?? 0) + 1);
    this.emit(run, 'running');
    const abort = new AbortController();
    const done = this.perform(run, factoryId, config, abort.signal)
      .catch((error: unknown) => failed(`the executor failed: ${describeError(error)}`))
      .then((result) => this.recorder.record(run, config.kind, result, abort.signal.aborted))
      .finally(() => {
        this.live.end(run.id);
        this.inFlight.delete(run.id);
        this.active.set(factoryId, (this.active.get(factoryId) ?? 1) - 1);
        this.wake();
      });
    this.inFlight.set(run.id, { abort, done });
  }

  private async perform(
    run: RunRecord,
    factoryId: string,
    config: Exclude<ExecutorConfig, { kind: 'record' }>,
    signal: AbortSignal,
  ): Promise<ExecutionResult | InputUnread> {
    let payload: Buffer | null;
    let eventType: string | null;
    try {
      payload = await this.deps.runs.payloadOf(run.deliveryId);
      eventType = await this.deps.runs.eventTypeOf(run.deliveryId);
    } catch (error) {
      return new InputUnread(error);
    }
    this.recorder.inputRead(run.id);
    if (!payload) return failed(`the payload of ${run.deliveryId} is no longer stored`);
    const job: RunJob = {
      runId: run.id,
      automationId: run.automationId,
      deliveryId: run.deliveryId,
      webhookUid: run.webhookUid,
      eventType,
      input: run.input,
      payload,
      signal,
      started: (process) => {
        this.deps.runs.recordProcess(run.id, process).catch((error: unknown) => {
          this.deps.log.error(
            `[runs] could not record the program of ${run.id}: ${describeError(error)}`,
          );
        });
      },
      onOutput: this.live.sink(run.id),
    };
    if (config.kind !== 'command') return executeHttp(config, job);
    const mcp = (await this.deps.mcpAccess?.open(factoryId, run.id)) ?? null;
    try {
      return await executeCommand(config, this.deps.dataDir, { ...job, mcp });
    } finally {
      // The token ends with the run, before its end is recorded.
      this.deps.mcpAccess?.close(run.id);
    }
  }

  private emit(
    run: Pick<RunRecord, 'id' | 'automationId' | 'deliveryId'>,
    status: RunRecord['status'],
  ): void {
    this.deps.events.emit({
      type: 'run',
      run: { id: run.id, automationId: run.automationId, deliveryId: run.deliveryId, status },
    });
  }
}
