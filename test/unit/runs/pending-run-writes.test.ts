import { describe, expect, it } from 'vitest';
import {
  FIRST_RETRY_MS,
  MAX_RETRY_MS,
  PendingRunWrites,
  type RetryClock,
  type RunWrite,
  type RunWriteStore,
} from '../../../src/main/runs/pending-run-writes.js';
import type { RunOutcome } from '../../../src/main/store/runs.js';

/** A clock whose timers fire only when the test moves time. */
class ManualClock implements RetryClock {
  private time = 0;
  private timers: Array<{ at: number; fn: () => void }> = [];
  now = (): number => this.time;
  after = (ms: number, fn: () => void): (() => void) => {
    const timer = { at: this.time + ms, fn };
    this.timers.push(timer);
    return () => (this.timers = this.timers.filter((t) => t !== timer));
  };
  /** When the next timer fires, or null. */
  get next(): number | null {
    return this.timers.length ? Math.min(...this.timers.map((t) => t.at)) : null;
  }
  /** Moves to the next timer, fires it, and lets the writes it starts settle. */
  async fireNext(): Promise<number> {
    const at = this.next;
    if (at === null) throw new Error('no timer is waiting');
    this.time = at;
    const due = this.timers.filter((t) => t.at <= at);
    this.timers = this.timers.filter((t) => t.at > at);
    for (const t of due) t.fn();
    for (let i = 0; i < 10; i++) await Promise.resolve();
    return at;
  }
}

/** The store: down (every write rejects, as a stopped database does) until brought back. */
class FlakyStore implements RunWriteStore {
  up = false;
  attempts = 0;
  readonly rows = new Map<string, RunOutcome | 'queued'>();
  finish(id: string, outcome: RunOutcome): Promise<void> {
    return this.answer(() => this.rows.set(id, outcome));
  }
  requeue(id: string): Promise<void> {
    return this.answer(() => this.rows.set(id, 'queued'));
  }
  private answer(write: () => void): Promise<void> {
    this.attempts++;
    if (!this.up) return Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
    write();
    return Promise.resolve();
  }
}

const outcome = (output: string | null): RunOutcome => ({
  status: 'succeeded',
  exitCode: 0,
  output,
  error: null,
});
const finish = (runId: string, output: string | null = 'done\n'): RunWrite => ({
  kind: 'finish',
  runId,
  outcome: outcome(output),
  at: 1_000,
});

function setup(limits?: { writes?: number; outputBytes?: number }) {
  const clock = new ManualClock();
  const store = new FlakyStore();
  const written: Array<{ runId: string; attempts: number }> = [];
  const waiting: string[] = [];
  const dropped: string[] = [];
  const writes = new PendingRunWrites({
    store,
    clock,
    limits,
    onWritten: (w, attempts) => written.push({ runId: w.runId, attempts }),
    onWaiting: (w) => waiting.push(w.runId),
    onDropped: (w) => dropped.push(w.runId),
  });
  return { clock, store, writes, written, waiting, dropped };
}

describe('run outcomes waiting for the store', () => {
  it('are written at once when the store answers, with nothing kept', async () => {
    const { store, writes, written, clock } = setup();
    store.up = true;
    await writes.submit(finish('run_1'));
    expect(written).toEqual([{ runId: 'run_1', attempts: 1 }]);
    expect(writes.size).toBe(0);
    expect(clock.next).toBeNull();
  });

  it('wait through an outage with growing backoff, then are written as they were, oldest first', async () => {
    const { store, writes, written, waiting, clock } = setup();
    await writes.submit(finish('run_1', 'first output'));
    await writes.submit({ kind: 'requeue', runId: 'run_2', at: 1_000 });
    expect(waiting).toEqual(['run_1', 'run_2']);
    expect(writes.size).toBe(2);

    // Each failed round doubles the wait, up to the cap.
    const fired: number[] = [];
    for (let i = 0; i < 8; i++) fired.push(await clock.fireNext());
    const gaps = fired.map((at, i) => at - (fired[i - 1] ?? 0));
    expect(gaps.slice(0, 4)).toEqual([
      FIRST_RETRY_MS,
      FIRST_RETRY_MS * 2,
      FIRST_RETRY_MS * 4,
      FIRST_RETRY_MS * 8,
    ]);
    expect(Math.max(...gaps)).toBe(MAX_RETRY_MS);
    expect(written).toEqual([]);

    store.up = true;
    await clock.fireNext();
    expect(written).toEqual([
      { runId: 'run_1', attempts: 10 },
      { runId: 'run_2', attempts: 10 },
    ]);
    expect(store.rows.get('run_1')).toEqual(outcome('first output'));
    expect(store.rows.get('run_2')).toBe('queued');
    expect(writes.size).toBe(0);
    expect(writes.outputBytes).toBe(0);
    // Nothing left to retry: no timer stays behind.
    expect(clock.next).toBeNull();
  });

  it('keep at most the output bound in memory: past it, the status is kept and the output replaced by a note', async () => {
    const { store, writes, clock } = setup({ outputBytes: 100 });
    await writes.submit(finish('run_1', 'a'.repeat(60)));
    await writes.submit(finish('run_2', 'b'.repeat(60)));
    expect(writes.size).toBe(2);
    expect(writes.outputBytes).toBeLessThanOrEqual(60 + 200);

    store.up = true;
    await clock.fireNext();
    expect(store.rows.get('run_1')).toEqual(outcome('a'.repeat(60)));
    const second = store.rows.get('run_2') as RunOutcome;
    expect(second.status).toBe('succeeded');
    expect(second.exitCode).toBe(0);
    expect(second.output).toMatch(/^\[output not kept: 60 bytes; the store could not be written/);
  });

  it('drop a newcomer past the count bound, and say so, keeping those already waiting', async () => {
    const { store, writes, dropped, clock } = setup({ writes: 2 });
    await writes.submit(finish('run_1'));
    await writes.submit(finish('run_2'));
    await writes.submit(finish('run_3'));
    expect(dropped).toEqual(['run_3']);
    expect(writes.size).toBe(2);
    store.up = true;
    await clock.fireNext();
    expect([...store.rows.keys()].sort()).toEqual(['run_1', 'run_2']);
  });

  it('get one last try when the relay stops, and no retry after it', async () => {
    const { store, writes, written, clock } = setup();
    await writes.submit(finish('run_1'));
    await writes.submit(finish('run_2'));
    store.up = true;
    await writes.stop();
    expect(written.map((w) => w.runId)).toEqual(['run_1', 'run_2']);

    store.up = false;
    const before = store.attempts;
    await writes.submit(finish('run_3'));
    expect(store.attempts).toBe(before + 1);
    expect(writes.size).toBe(0);
    expect(clock.next).toBeNull();
  });
});
