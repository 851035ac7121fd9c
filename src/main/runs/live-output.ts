import { BoundedOutput } from './executors/bounded-output.js';

/** At most this many "more output" events a second per run: the page re-reads, never floods. */
const NOTIFY_INTERVAL_MS = 250;

/**
 * The output of runs still executing, kept in memory as the command prints it (bounded like the
 * stored output), so `runs.get` can show it before the run ends. Gone once the run is finished:
 * from then on the stored output is the answer.
 */
export class LiveOutput {
  private readonly runs = new Map<
    string,
    { output: BoundedOutput; timer: NodeJS.Timeout | null }
  >();

  constructor(private readonly notify: (runId: string) => void) {}

  /** The sink a run's executor writes to. */
  sink(runId: string): (chunk: Buffer) => void {
    const live = { output: new BoundedOutput(), timer: null as NodeJS.Timeout | null };
    this.runs.set(runId, live);
    return (chunk) => {
      live.output.push(chunk);
      live.timer ??= setTimeout(() => {
        live.timer = null;
        if (this.runs.get(runId) === live) this.notify(runId);
      }, NOTIFY_INTERVAL_MS);
    };
  }

  text(runId: string): string | null {
    return this.runs.get(runId)?.output.text() ?? null;
  }

  end(runId: string): void {
    const live = this.runs.get(runId);
    if (live?.timer) clearTimeout(live.timer);
    this.runs.delete(runId);
  }
}
