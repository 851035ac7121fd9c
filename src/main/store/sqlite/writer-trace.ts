import { performance } from 'node:perf_hooks';
import type { Db } from './db.js';

/**
 * A probe for the benchmarks (`HOOKPORT_TRACE_WRITER_MS=<ms>` in the relay's environment): every
 * transaction on the writer thread that holds the write lock at least that long is reported on
 * stderr by kind (an accept commit, an index slice, a merge step, a retention slice), with its
 * work and its COMMIT apart (FTS5 flushes its segments, and merges a full level, at COMMIT).
 * Off (the plain transaction) unless set.
 */
const thresholdMs = Number(process.env.HOOKPORT_TRACE_WRITER_MS ?? 0);
/** `HOOKPORT_TRACE_WRITER_BEGINS=1`: every transaction but the index's also says when it begins. */
const traceBegins = process.env.HOOKPORT_TRACE_WRITER_BEGINS === '1';

export function tracedTransaction<A extends unknown[], R>(
  db: Db,
  kind: string,
  fn: (...args: A) => R,
): (...args: A) => R {
  if (!(thresholdMs > 0)) return db.transaction(fn);
  let workMs = 0;
  const transaction = db.transaction((...args: A): R => {
    const started = performance.now();
    try {
      return fn(...args);
    } finally {
      workMs = performance.now() - started;
    }
  });
  return (...args: A): R => {
    const started = performance.now();
    if (traceBegins && kind !== 'index') {
      process.stderr.write(`[writer] ${(started / 1000).toFixed(1)} s ${kind} begins\n`);
    }
    try {
      return transaction(...args);
    } finally {
      const took = performance.now() - started;
      reportSlow(kind, took, `work ${workMs.toFixed(0)}, commit ${(took - workMs).toFixed(0)}`);
    }
  };
}

/** A writer-thread step of `kind` that took `took` ms: reported when the probe is on and it is slow. */
export function reportSlow(kind: string, took: number, detail: string): void {
  if (!(thresholdMs > 0) || took < thresholdMs) return;
  const at = (performance.now() / 1000).toFixed(1);
  process.stderr.write(`[writer] ${at} s ${kind} ${took.toFixed(0)} ms (${detail})\n`);
}
