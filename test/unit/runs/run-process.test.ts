import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { processStart, stillRunning } from '../../../src/main/runs/run-process.js';

/**
 * After a crash the relay stops a run's program only if the process it recorded is still the
 * same program: a process ID reused by something else since is left alone.
 */
describe('finding a run’s program again', () => {
  it('knows a running program by its process ID and start', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
    try {
      const recorded = { group: child.pid!, started: processStart(child.pid!) };
      expect(recorded.started).not.toBeNull();
      expect(stillRunning(recorded)).toBe(true);
      // Same ID, another start: another program that got the ID later.
      expect(stillRunning({ ...recorded, started: `${recorded.started}0` })).toBe(false);
    } finally {
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });

  it('finds nothing once the program has exited', async () => {
    const child = spawn(process.execPath, ['-e', '']);
    const started = processStart(child.pid!);
    await new Promise((resolve) => child.once('exit', resolve));
    expect(stillRunning({ group: child.pid!, started })).toBe(false);
  });
});
