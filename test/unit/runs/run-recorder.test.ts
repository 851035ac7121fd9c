import { describe, expect, it } from 'vitest';
import type { RetryClock } from '../../../src/main/runs/pending-run-writes.js';
import { INPUT_READ_TRIES, InputUnread, RunRecorder } from '../../../src/main/runs/run-recorder.js';
import type { RunOutcome, RunRecord } from '../../../src/main/store/runs.js';

/** Timers that never fire on their own: these tests write while the store answers. */
const stillClock: RetryClock = { now: () => 0, after: () => () => undefined };

const run = { id: 'run_1', automationId: 'aut_1', deliveryId: 'dlv_1', startedAt: 0 } as RunRecord;

function setup() {
  const writes: Array<[string, string, RunOutcome | null]> = [];
  const statuses: string[] = [];
  let requeued = 0;
  const recorder = new RunRecorder({
    // The store's side of the recorder (the boundary under test is the recorder's decisions).
    runs: {
      finish: (id, outcome) => Promise.resolve(void writes.push(['finish', id, outcome])),
      requeue: (id) => Promise.resolve(void writes.push(['requeue', id, null])),
      letGo: () => Promise.resolve(),
    },
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    now: () => 1_000,
    clock: stillClock,
    recorded: (_run, status) => statuses.push(status),
    requeued: () => requeued++,
  });
  return { recorder, writes, statuses, requeued: () => requeued };
}

describe('how a run whose input could not be read is recorded', () => {
  it('goes back to the queue (nothing ran), then fails with the reason once it keeps failing', async () => {
    const { recorder, writes, statuses, requeued } = setup();
    const unread = new InputUnread(new Error('Connection terminated unexpectedly'));
    for (let i = 1; i < INPUT_READ_TRIES; i++) await recorder.record(run, 'command', unread, false);
    expect(writes.map(([kind]) => kind)).toEqual(Array(INPUT_READ_TRIES - 1).fill('requeue'));
    expect(statuses).toEqual(Array(INPUT_READ_TRIES - 1).fill('queued'));
    expect(requeued()).toBe(INPUT_READ_TRIES - 1);

    await recorder.record(run, 'command', unread, false);
    const [kind, , outcome] = writes.at(-1)!;
    expect(kind).toBe('finish');
    expect(outcome).toMatchObject({ status: 'failed', exitCode: null, output: null });
    expect(outcome!.error).toBe(
      `its input (the payload of dlv_1) could not be read, ${INPUT_READ_TRIES} time(s): Error: Connection terminated unexpectedly`,
    );
    expect(statuses.at(-1)).toBe('failed');
  });

  it('starts the count again once the input was read', async () => {
    const { recorder, writes } = setup();
    const unread = new InputUnread(new Error('timeout'));
    await recorder.record(run, 'command', unread, false);
    recorder.inputRead(run.id);
    for (let i = 1; i < INPUT_READ_TRIES; i++) await recorder.record(run, 'command', unread, false);
    expect(writes.every(([kind]) => kind === 'requeue')).toBe(true);
  });

  it('is interrupted, not put back, when the relay is stopping', async () => {
    const { recorder, writes } = setup();
    await recorder.record(run, 'command', new InputUnread(new Error('closed')), true);
    expect(writes).toEqual([
      ['finish', 'run_1', expect.objectContaining({ status: 'interrupted' }) as RunOutcome],
    ]);
  });
});
