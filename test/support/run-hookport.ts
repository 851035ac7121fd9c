import { spawn } from 'node:child_process';
import { REPO_ROOT, hookportArgv } from './hookport-bin.js';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `hookport <args>` as a user would. The child gets this process's
 * environment without HOOKPORT_* variables, plus `env`.
 */
export function runCli(args: readonly string[], env: Record<string, string> = {}): Promise<CliRun> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('HOOKPORT_')),
  );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, hookportArgv(...args), {
      cwd: REPO_ROOT,
      env: { ...clean, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
