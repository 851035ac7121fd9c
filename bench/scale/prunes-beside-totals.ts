import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { DAY_MS } from './ui-reads.js';

/** A store's side of prune-recount.ts (SQLite) and pg-prune-recount.ts (PostgreSQL). */
export interface PrunedStore {
  /** Tromsø's exact total in the busy webhook. */
  total(): Promise<number> | number;
  /** The log's oldest entry's `received_at`. */
  oldest(): Promise<number> | number;
  prune(
    policy: { days: number; minPerWebhook: number; dedupeWindowMs: number },
    now: number,
  ): Promise<number>;
}

const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

/** Prints one timed total, its figure and its time. */
export async function timedTotal(what: string, total: () => Promise<number> | number) {
  const at = performance.now();
  const n = await total();
  const ms = Math.round(performance.now() - at);
  console.log(`${what.padEnd(44)} ${String(n).padStart(8)} ${String(ms).padStart(7)} ms`);
}

/**
 * The first total, then three prunes of the log's oldest half hour (as retention prunes hourly
 * at a week's scale), each followed by the total and the total again.
 */
export async function prunesBesideTotals(store: PrunedStore): Promise<void> {
  console.log(`load average ${load()}`);
  await timedTotal('first total', () => store.total());
  await timedTotal('again (kept)', () => store.total());
  for (let prune = 1; prune <= 3; prune++) {
    const at = performance.now();
    const pruned = await store.prune(
      { days: 7, minPerWebhook: 50, dedupeWindowMs: DAY_MS },
      (await store.oldest()) + 7 * DAY_MS + 30 * 60_000,
    );
    console.log(`prune ${prune}: ${pruned} entries in ${Math.round(performance.now() - at)} ms`);
    await timedTotal(`total after prune ${prune}`, () => store.total());
    await timedTotal('again (kept)', () => store.total());
  }
  console.log(`load average ${load()}`);
}
