import { Worker, type ResourceLimits, type WorkerOptions } from 'node:worker_threads';

/**
 * A thread's own V8 heap holds a batch or a page or two at a time; a small young generation keeps
 * its share of the relay's memory small (docs/operations/memory.md).
 */
export const THREAD_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 2 };

/** A worker thread's script: the built one, or its source and the dev boot that bundles it. */
export interface ThreadScript {
  script: string;
  tsWorker: string | null;
}

/**
 * A thread's script sits beside the code that starts it: `<name>.js` beside the bundle
 * (electron-vite's out/main, the benchmark's out/bench). From sources (vitest, `node --import tsx`)
 * it is `<name>.ts`, which a thread cannot load as it is: the repository's dev boot
 * (scripts/ts-worker.mjs) bundles it first. The relay never resolves a devDependency itself.
 */
export function threadScript(name: string): ThreadScript {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return { script: new URL(`./${name}.js`, here).href, tsWorker: null };
  return {
    script: new URL(`./${name}.ts`, here).href,
    tsWorker: new URL('../../../../scripts/ts-worker.mjs', here).href,
  };
}

export function startThread({ script, tsWorker }: ThreadScript, options: WorkerOptions): Worker {
  if (tsWorker === null) return new Worker(new URL(script), options);
  return new Worker(new URL(tsWorker), { ...options, argv: [script] });
}
