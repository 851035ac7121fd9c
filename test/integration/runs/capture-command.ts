import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { CommandExecutorConfig } from '../../../src/shared/contract/executors.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/runs/capture-run.ts', import.meta.url));
/** Absolute, because a run's working directory is its run folder, where `tsx` cannot be found by name. */
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** A `command` executor running test/fixtures/runs/capture-run.ts, which records into `out`. */
export function captureCommand(
  out: string,
  overrides: Partial<CommandExecutorConfig> = {},
): CommandExecutorConfig {
  return {
    kind: 'command',
    command: process.execPath,
    args: ['--import', TSX, FIXTURE, out],
    timeoutSeconds: 60,
    concurrency: 1,
    shell: false,
    ...overrides,
  };
}
