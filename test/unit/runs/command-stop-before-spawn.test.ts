import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { executeCommand } from '../../../src/main/runs/executors/command.js';

describe('the command executor when the relay stops before the program starts', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('never starts the program and reports the stop, instead of leaving it running', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hookport-stop-'));
    dirs.push(dataDir);
    const marker = join(dataDir, 'started');
    const abort = new AbortController();
    // The stop lands while the run folder is being written (the executor awaits that first).
    queueMicrotask(() => abort.abort());
    const result = await executeCommand(
      {
        kind: 'command',
        command: process.execPath,
        args: [
          '-e',
          `require('fs').writeFileSync(${JSON.stringify(marker)}, ''); setInterval(() => {}, 60000)`,
        ],
        timeoutSeconds: 60,
        concurrency: 1,
        shell: false,
      },
      dataDir,
      {
        runId: 'run_01JD0000000000000000000000',
        automationId: 'aut_01JD0000000000000000000000',
        deliveryId: 'dlv_01JD0000000000000000000000',
        webhookUid: 'wh_aaaaaaaaaaaaaaaaaaaaaaaa',
        eventType: null,
        input: 'prompt',
        payload: Buffer.from('{}'),
        signal: abort.signal,
        started: () => {},
      },
    );
    expect(result).toMatchObject({ status: 'failed', error: 'stopped before the command started' });
    expect(existsSync(marker)).toBe(false);
  });
});
