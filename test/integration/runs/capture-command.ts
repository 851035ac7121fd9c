import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';
import type { CommandExecutorConfig } from '../../../src/shared/contract/executors.js';

const FIXTURE = fileURLToPath(new URL('../../fixtures/runs/capture-run.ts', import.meta.url));

/**
 * The fixture as plain JavaScript (it imports only Node's own modules), compiled once per
 * content: every run starts `node capture-run.mjs` instead of registering tsx first, which cost
 * each run about 0.3 s of CPU more.
 */
function compiledFixture(): string {
  const source = readFileSync(FIXTURE, 'utf8');
  const key = createHash('sha256').update(source).digest('hex').slice(0, 16);
  const dir = join(tmpdir(), 'hookport-test-fixtures');
  const file = join(dir, `capture-run-${key}.mjs`);
  if (existsSync(file)) return file;
  const { code } = transformSync(source, { loader: 'ts', format: 'esm', target: 'node20' });
  mkdirSync(dir, { recursive: true });
  // Other test workers may write it at once: each writes its own file, then renames it.
  const tmp = `${file}.${process.pid}`;
  writeFileSync(tmp, code);
  renameSync(tmp, file);
  return file;
}

const COMPILED = compiledFixture();

/** A `command` executor running test/fixtures/runs/capture-run.ts, which records into `out`. */
export function captureCommand(
  out: string,
  overrides: Partial<CommandExecutorConfig> = {},
): CommandExecutorConfig {
  return {
    kind: 'command',
    command: process.execPath,
    args: [COMPILED, out],
    timeoutSeconds: 60,
    concurrency: 1,
    shell: false,
    ...overrides,
  };
}
