import { spawn, type ChildProcess } from 'node:child_process';
import { REPO_ROOT, hookportArgv } from '../../../support/hookport-bin.js';
import type { TestRelay } from '../../../support/relay.js';
import { waitFor } from '../../../support/wait.js';

export interface ForwardProcess {
  child: ChildProcess;
  /** Everything printed on stdout so far, line by line. */
  lines(): string[];
  stderr(): string;
  /** Resolves with the exit code (null when killed by a signal) once the process ended. */
  exited: Promise<number | null>;
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
}

/** `hookport forward <args>` as a tester runs it in a terminal, against a running relay. */
export function startForward(relay: TestRelay, args: string[]): ForwardProcess {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('HOOKPORT_')),
  );
  const child = spawn(
    process.execPath,
    hookportArgv('forward', ...args, '--admin-url', relay.adminUrl),
    {
      cwd: REPO_ROOT,
      env: { ...clean, HOOKPORT_ADMIN_TOKEN: relay.adminToken },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const lines = (): string[] => stdout.split('\n').filter((line) => line !== '');
  return {
    child,
    lines,
    stderr: () => stderr,
    exited,
    waitForLine: (pattern, timeoutMs = 20_000) =>
      waitFor(
        () => lines().find((line) => pattern.test(line)),
        `a line matching ${pattern}:\n${stdout}${stderr}`,
        {
          timeoutMs,
          intervalMs: 25,
        },
      ),
  };
}
