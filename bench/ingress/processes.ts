import { spawn, type ChildProcess } from 'node:child_process';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { LoadOptions, LoadResult } from './load-generator.js';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Inside the repository, so that the bundles' package imports resolve to its node_modules. */
const BUNDLE_DIR = join(REPO_ROOT, 'out', 'bench');

const bundles = new Map<string, Promise<string>>();

/**
 * Every benchmarked process runs as a plain ES bundle, compiled as the shipped CLI is, not under
 * tsx: its loader hooks and the name it keeps on every closure cost the relay about a third of
 * its refusal-path throughput, which no user pays.
 */
function bundled(script: string, extension = '.mjs'): Promise<string> {
  let outfile = bundles.get(script);
  if (!outfile) {
    const path = join(BUNDLE_DIR, basename(script).replace(/\.ts$/, extension));
    outfile = build({
      entryPoints: [join(REPO_ROOT, script)],
      outfile: path,
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
  stop(): Promise<void>;
}

/**
 * Runs a TypeScript entry, bundled, in a child process; resolves with its first JSON line.
 * `threads` are worker-thread scripts it starts, bundled beside it as `<name>.js` (where the
 * relay's core looks for its writer thread).
 */
export async function startServer<T>(
  script: string,
  args: string[] = [],
  threads: string[] = [],
): Promise<ServerProcess<T>> {
  await Promise.all(threads.map((thread) => bundled(thread, '.js')));
  const child = spawn(process.execPath, [await bundled(script), ...args], {
    cwd: REPO_ROOT,
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
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Runs the load generator in a process of its own and returns its results. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const child = spawn(
    process.execPath,
    [await bundled('bench/ingress/load-generator.ts'), JSON.stringify(options)],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`the load generator failed (${code})`);
  return JSON.parse(output.trim().split('\n').at(-1)!) as LoadResult;
}
