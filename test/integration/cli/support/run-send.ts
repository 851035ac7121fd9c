import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, hookportArgv } from '../../../support/hookport-bin.js';
import { tempDir } from '../../../support/relay.js';

export interface SendRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `hookport send …` as a user would. */
export function runSend(args: readonly string[], stdin?: Buffer | string): Promise<SendRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, hookportArgv('send', ...args), {
      cwd: REPO_ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

/** Runs several at once, a few at a time (the machine is shared). */
export async function runSendAll(
  runs: readonly (readonly string[])[],
  parallel = 3,
): Promise<SendRun[]> {
  const results: SendRun[] = new Array<SendRun>(runs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < runs.length) {
      const index = next++;
      results[index] = await runSend(runs[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, runs.length) }, worker));
  return results;
}

const bodyDirs: string[] = [];

/** Writes `body` to a fresh file and returns its path. */
export function bodyFile(body: Buffer | string, name = 'body.json'): string {
  const dir = tempDir('hookport-send-');
  bodyDirs.push(dir);
  const path = join(dir, name);
  writeFileSync(path, body);
  return path;
}

export function removeBodyFiles(): void {
  for (const dir of bodyDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** `202 dlv_…` → the delivery ID. */
export function deliveryIdOf(run: SendRun): string {
  const match = /^202 (dlv_[0-9A-HJKMNP-TV-Z]{26})\n$/.exec(run.stdout);
  if (!match) throw new Error(`not an accepted send: ${JSON.stringify(run)}`);
  return match[1]!;
}
