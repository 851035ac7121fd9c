/**
 * The relay-level suites' measuring machinery (ingress, postgres): load runs against servers in
 * processes of their own, interleaved in rounds (a, b, c, a, b, …), each row the median round:
 * measured one after the other, a server measured later ran on a warmer machine and JIT, which
 * moved the ratios by a third between runs.
 * BENCH_SECONDS (default 5), BENCH_WARMUP_SECONDS (default 2, before the first round only) and
 * BENCH_ROUNDS (default 3) set the run lengths.
 */
import { existsSync } from 'node:fs';
import { cpuUsedBetween, type CpuSample } from './cpu-time.js';
import type { BodyShape, LoadResult } from './load-generator.js';
import { runLoad, type ServerProcess } from './processes.js';
import { runWrk } from './wrk-load.js';
import type { BenchRelayInfo } from '../relay-server.js';

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
export const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
export const CONNECTIONS = 50;

/**
 * Who sends the load: autocannon (a Node process, the project's first load generator) or wrk (a
 * C program, the outside measure: autocannon saturates first on two shared cores).
 */
export type LoadGenerator = 'autocannon' | 'wrk';
const GENERATORS = { autocannon: runLoad, wrk: runWrk };

export interface Row {
  name: string;
  bodyBytes: number;
  expect: number[];
  result: LoadResult;
  /** CPU time per answered request (µs) of each process group the path names in `cpu`. */
  cpuPerRequest?: Record<string, number>;
}

/** Answers other than the path's own (a 503 where a 202 was due): the row does not measure it. */
export const invalid = ({ expect, result }: Row): boolean =>
  result.errors > 0 ||
  Object.keys(result.statuses).some((status) => !expect.includes(Number(status)));

export interface Path {
  name: string;
  /** Several URLs share the connections between them (two relays behind one sender). */
  url: string | string[];
  headers: Record<string, string>;
  /** The statuses this path answers; any other (a 503 where a 202 was due) spoils the row. */
  expect: number[];
  /** What the bodies look like (default: one padded JSON string). */
  body?: BodyShape;
  /** The server's data dir: checked around every load run. */
  dataDir?: string;
  /** Runs before each of this path's rounds (the 429 path spends the rate budget again). */
  before?: () => Promise<void>;
  /** Runs after each of this path's rounds (a relay lets its search indexer catch up). */
  after?: () => Promise<void>;
  /** The CPU time of the processes serving this path, by name (server, database). */
  cpu?: Record<string, () => CpuSample>;
}

let runs = 0;

/**
 * A data dir removed under a running server (once by a clean-up of the temp dir while a run was
 * under way) turns its rows into 503s measured as if they were the path: stop instead.
 */
function checkDataDir(path: Path): void {
  if (path.dataDir && !existsSync(path.dataDir)) {
    throw new Error(
      `${path.name}: its data dir ${path.dataDir} was removed while the benchmark ran (by another process?); the numbers after this would not measure the path`,
    );
  }
}

/** One load run; `warm` runs the warm-up first (the first round of each server only). */
async function load(
  path: Path,
  bodyBytes: number,
  warm: boolean,
  generator: LoadGenerator,
): Promise<Row> {
  const send = GENERATORS[generator];
  checkDataDir(path);
  const base = {
    url: path.url,
    bodyBytes,
    body: path.body,
    connections: CONNECTIONS,
    headers: path.headers,
  };
  const prefix = `${path.name.replace(/\W+/g, '-')}-${Date.now()}-${++runs}`;
  if (warm && WARMUP_SECONDS > 0)
    await send({ ...base, seconds: WARMUP_SECONDS, idPrefix: `${prefix}-warm` });
  const cpu = Object.entries(path.cpu ?? {});
  const cpuBefore = cpu.map(([, sample]) => sample());
  const result = await send({ ...base, seconds: SECONDS, idPrefix: prefix });
  const answered = Object.values(result.statuses).reduce((sum, n) => sum + n, 0);
  const cpuPerRequest = Object.fromEntries(
    cpu.map(([name, sample], i) => [
      name,
      (cpuUsedBetween(cpuBefore[i]!, sample()) * 1000) / answered,
    ]),
  );
  checkDataDir(path);
  return { name: path.name, bodyBytes, expect: path.expect, result, cpuPerRequest };
}

/** The round with the median throughput: one disturbed round moves neither the row nor a ratio. */
function medianRow(rows: Row[]): Row {
  const sorted = [...rows].sort((x, y) => x.result.requestsPerSecond - y.result.requestsPerSecond);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Every path once per round, rounds interleaved; one median row per path, in path order. */
export async function measure(
  paths: Path[],
  bodyBytes: number,
  warm: boolean,
  generator: LoadGenerator = 'autocannon',
): Promise<Row[]> {
  const rounds = paths.map((): Row[] => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, path] of paths.entries()) {
      await path.before?.();
      rounds[index]!.push(await load(path, bodyBytes, warm && round === 0, generator));
      await path.after?.();
    }
  }
  return rounds.map(medianRow);
}

export const size = (bytes: number): string =>
  bytes >= 1024 ? `${bytes / 1024} KB` : `${bytes} B`;
const statuses = (result: LoadResult): string =>
  Object.entries(result.statuses)
    .map(([status, count]) => `${status}×${count}`)
    .join(' ') + (result.errors > 0 ? ` errors×${result.errors}` : '');

export function header(width = 28): string {
  return `${'server'.padEnd(width)} ${'body'.padStart(6)} ${'req/s'.padStart(9)} ${'p50'.padStart(7)} ${'p99'.padStart(7)}   statuses`;
}

export function formatRow(row: Row, width = 28): string {
  const { name, bodyBytes, result } = row;
  return [
    name.padEnd(width),
    size(bodyBytes).padStart(6),
    Math.round(result.requestsPerSecond).toLocaleString('en-US').padStart(9),
    String(result.p50).padStart(7),
    String(result.p99).padStart(7),
    `  ${statuses(result)}${invalid(row) ? `  INVALID: answers other than ${row.expect.join(' or ')}` : ''}`,
  ].join(' ');
}

export const ratio = (x: Row, y: Row): number =>
  x.result.requestsPerSecond / y.result.requestsPerSecond;
export const check = (ok: boolean): string => (ok ? 'meets target' : 'MISSES target');

/** Waits until the relay's search indexer has indexed everything queued; how many, how long. */
export async function searchCatchUp(
  server: ServerProcess<BenchRelayInfo>,
): Promise<{ entries: number; ms: number }> {
  const started = Date.now();
  const entries = await server.pending();
  for (let left = entries; left > 0; left = await server.pending()) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { entries, ms: Date.now() - started };
}

/** Lists the rows that measured something other than their path, if any. */
export function reportInvalid(rows: Row[]): void {
  const invalidRows = rows.filter(invalid);
  if (invalidRows.length > 0) {
    console.log(
      `\nINVALID rows (answers other than the path's own): ${invalidRows.map((r) => `${r.name} at ${size(r.bodyBytes)}`).join('; ')}; the ratios that use them measure nothing.`,
    );
  }
}
