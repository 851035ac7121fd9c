import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AdminClient } from '../../src/main/cli/admin-client.js';
import { REPO_ROOT, hookportArgv } from './hookport-bin.js';
import type { TestRelay } from './relay.js';

export interface ChildRelay {
  child: ChildProcess;
  dataDir: string;
  ingressUrl: string;
  adminUrl: string;
  adminToken: string;
  /** Everything the relay printed so far (stdout and stderr). */
  output(): string;
  /** Resolves once the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * `hookport serve` as a user runs it, in a child process of its own, on free loopback ports.
 * Resolves once it has printed its listener URLs. `env` is added to a copy of this process's
 * environment from which HOOKPORT_* variables were removed.
 */
export async function spawnServe(
  dataDir: string,
  env: Record<string, string> = {},
  { startTimeoutMs = 30_000, args = [] }: { startTimeoutMs?: number; args?: string[] } = {},
): Promise<ChildRelay> {
  const cleanEnv = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('HOOKPORT_')),
  );
  const child = spawn(
    process.execPath,
    hookportArgv(
      'serve',
      '--data-dir',
      dataDir,
      '--ingress-port',
      '0',
      '--admin-port',
      '0',
      ...args,
    ),
    { cwd: REPO_ROOT, env: { ...cleanEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );

  const urls = await new Promise<{ ingressUrl: string; adminUrl: string }>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`hookport serve did not start within ${startTimeoutMs} ms:\n${output}`));
    }, startTimeoutMs);
    const check = (): void => {
      const ingress = /Ingress\s+(http:\/\/\S+)/.exec(output)?.[1];
      const admin = /Admin\s+(http:\/\/\S+)/.exec(output)?.[1];
      if (ingress && admin) {
        clearTimeout(timer);
        child.stdout.off('data', check);
        resolve({ ingressUrl: ingress, adminUrl: admin });
      }
    };
    child.stdout.on('data', check);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`hookport serve exited (${code ?? signal}) before it started:\n${output}`));
    });
  });

  const adminToken =
    env.HOOKPORT_ADMIN_TOKEN ?? readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
  return { child, dataDir, ...urls, adminToken, output: () => output, exited };
}

/** Calls the child's management API with its admin token. */
/** Management calls to a child relay through the contract, as `TestRelay.call` makes them. */
export function clientOf(
  relay: Pick<ChildRelay, 'adminUrl' | 'adminToken'>,
): Pick<TestRelay, 'call'> {
  const client = new AdminClient(relay.adminUrl, relay.adminToken);
  return { call: (method, input) => client.call(method, input) };
}

export async function childApi<T = Record<string, unknown>>(
  relay: Pick<ChildRelay, 'adminUrl' | 'adminToken'>,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${relay.adminUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${relay.adminToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}
