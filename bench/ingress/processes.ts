import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { AbsurdLengthOptions } from './absurd-length-load.js';
import type { FuzzOptions, FuzzResult } from './fuzz-load.js';
import type { LoadOptions, LoadResult } from './load-generator.js';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Inside the repository, so that the bundles' package imports resolve to its node_modules. */
const BUNDLE_DIR = join(REPO_ROOT, 'out', 'bench');

const bundles = new Map<string, Promise<string>>();

/** The words of the `hookport` launcher's #! line after `env -S`: assignments, node, its flags. */
function launcherWords(): string[] {
  const shebang = readFileSync(join(REPO_ROOT, 'bin', 'hookport.js'), 'utf8').split('\n')[0]!;
  return shebang
    .replace(/^#!\/usr\/bin\/env -S/, '')
    .trim()
    .split(/\s+/)
    .filter(Boolean);
}

/**
 * The V8 flags the `hookport` launcher runs the relay with (its #! line), so that the benchmarked
 * relay's memory and speed are what a user's are.
 */
export function launcherFlags(): string[] {
  return launcherWords().filter((word) => word.startsWith('--'));
}

/** The environment the launcher sets for the relay (MALLOC_ARENA_MAX), for the same reason. */
export function launcherEnv(): Record<string, string> {
  const assignments = launcherWords().filter((word) => /^[A-Z_]+=/.test(word));
  return Object.fromEntries(assignments.map((word) => word.split('=', 2) as [string, string]));
}

/**
 * Every benchmarked process runs as a plain ES bundle, compiled as the shipped CLI is, not under
 * tsx: its loader hooks and the name it keeps on every closure cost the relay about a third of
 * its refusal-path throughput, which no user pays. What the code imports dynamically (the
 * PostgreSQL store and its driver, the keychain library) goes to chunks of its own, as in the
 * shipped build, so that a SQLite relay loads neither: in one bundle their packages' imports
 * would be hoisted to its top and loaded at start (about 4 MB of RSS the user does not have).
 * Chunks sit beside the entries, where the core looks for the writer thread's script.
 */
function bundled(script: string, extension = '.mjs'): Promise<string> {
  // Already a bundle (an earlier build kept for an A/B run): run as it is.
  if (script.endsWith('.mjs')) return Promise.resolve(join(REPO_ROOT, script));
  let outfile = bundles.get(script);
  if (!outfile) {
    const name = basename(script).replace(/\.ts$/, '');
    const path = join(BUNDLE_DIR, `${name}${extension}`);
    outfile = build({
      entryPoints: { [name]: join(REPO_ROOT, script) },
      outdir: BUNDLE_DIR,
      outExtension: { '.js': extension },
      splitting: true,
      chunkNames: '[name]-[hash]',
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      logLevel: 'warning',
    }).then(() => path);
    bundles.set(script, outfile);
  }
  return outfile;
}

export interface ServerProcess<T> {
  child: ChildProcess;
  /** The JSON line the server printed once it was listening. */
  info: T;
  /** Resident set size in bytes (servers that answer the `"rss"` IPC message). */
  rss(): Promise<number>;
  /** Log entries waiting for the search indexer (relays: the `"pending"` IPC message). */
  pending(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Runs a TypeScript entry, bundled, in a child process; resolves with its first JSON line.
 * `threads` are worker-thread scripts it starts, bundled beside it as `<name>.js` (where the
 * relay's core looks for its writer thread); `nodeFlags` go to node before the script; `env`
 * is added to this process's environment (a database URL, a key: never on a command line).
 */
export async function startServer<T>(
  script: string,
  args: string[] = [],
  threads: string[] = [],
  nodeFlags: string[] = [],
  env: Record<string, string> = {},
): Promise<ServerProcess<T>> {
  // The SQLite store's other threads (the search index's, the reads') sit beside its writer's.
  const withIndex = threads.flatMap((thread) =>
    thread.endsWith('/writer-thread.ts')
      ? [
          thread,
          ...['index-thread.ts', 'read-thread.ts'].map((name) =>
            thread.replace(/writer-thread\.ts$/, name),
          ),
        ]
      : [thread],
  );
  await Promise.all(withIndex.map((thread) => bundled(thread, '.js')));
  const child = spawn(process.execPath, [...nodeFlags, await bundled(script), ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const info = await new Promise<T>((resolve, reject) => {
    let buffered = '';
    const onData = (chunk: Buffer): void => {
      buffered += chunk.toString('utf8');
      const line = buffered.split('\n').find((l) => l.startsWith('{'));
      if (!line) return;
      child.stdout!.off('data', onData);
      // Keep draining: the relay logs a line per delivery, and a full pipe would stall it.
      child.stdout!.resume();
      resolve(JSON.parse(line) as T);
    };
    child.stdout!.on('data', onData);
    void exited.then(() => reject(new Error(`${script} exited before it was ready`)));
  });
  return {
    child,
    info,
    rss: () =>
      new Promise((resolve) => {
        child.once('message', (message: { rss: number }) => resolve(message.rss));
        child.send('rss');
      }),
    pending: () =>
      new Promise((resolve) => {
        child.once('message', (message: { pending: number }) => resolve(message.pending));
        child.send('pending');
      }),
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Runs a load script in a process of its own (one JSON argument) and returns its last JSON line. */
async function runOnce<O, R>(script: string, options: O): Promise<R> {
  const child = spawn(process.execPath, [await bundled(script), JSON.stringify(options)], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${script} failed (${code})`);
  return JSON.parse(output.trim().split('\n').at(-1)!) as R;
}

/** Runs the load generator in a process of its own and returns its results. */
export const runLoad = (options: LoadOptions): Promise<LoadResult> =>
  runOnce('bench/ingress/load-generator.ts', options);

/** Runs the fuzz load in a process of its own and returns what it saw. */
export const runFuzz = (options: FuzzOptions): Promise<FuzzResult> =>
  runOnce('bench/ingress/fuzz-load.ts', options);

/** Runs one side of the absurd Content-Length attack (absurd-length-load.ts) in its own process. */
export const runAbsurdLength = <R>(options: AbsurdLengthOptions): Promise<R> =>
  runOnce('bench/ingress/absurd-length-load.ts', options);
