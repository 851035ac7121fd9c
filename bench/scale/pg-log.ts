/**
 * What a private cluster's PostgreSQL logged during a scale run, each line at its second from
 * `zeroMs` (wall clock): its checkpoints (log_checkpoints is on by default), and the statements
 * and lock waits that `logSlowStatements` asked it to log.
 */
import pg from 'pg';
import { JOB_LOCK_NAMESPACE, jobLockKey } from '../../src/main/store/postgres/advisory-lock.js';

interface Line {
  at: number;
  what: string;
}

function linesSince(log: string, fromMs: number, pattern: RegExp, toMs = Infinity): Line[] {
  // A message's later lines (a statement's SQL) are logged each after a tab.
  return log
    .replace(/\n\t/g, ' ')
    .split('\n')
    .map((line) => /^(\S+ \S+) UTC \[\d+\] LOG:\s+(.*)$/.exec(line))
    .filter((match) => match !== null && pattern.test(match[2]!))
    .map((match) => ({ at: Date.parse(`${match![1]!.replace(' ', 'T')}Z`), what: match![2]! }))
    .filter(({ at }) => at >= fromMs && at <= toMs);
}

const at = (line: Line, zeroMs: number): string => `${((line.at - zeroMs) / 1000).toFixed(1)} s`;

/**
 * The checkpoints from `fromMs` on: a checkpoint's sync makes every commit's WAL flush wait, and
 * the seed's gigabytes are still being checkpointed when the relays start.
 */
export function checkpointsSince(log: string, fromMs: number, zeroMs: number): string {
  const lines = linesSince(log, fromMs, /^checkpoint (starting|complete):/);
  if (lines.length === 0) return 'none';
  const brief = (what: string): string =>
    what.startsWith('checkpoint starting')
      ? what.replace('checkpoint ', '')
      : `complete (${/write=[^,]+, sync=[^,]+, total=[^;]+/.exec(what)?.[0] ?? what})`;
  return lines.map((line) => `${at(line, zeroMs)} ${brief(line.what)}`).join('; ');
}

/**
 * Has the database's sessions log every statement over `thresholdMs` and every lock wait longer
 * than that (for sessions that connect after this: the relays about to start).
 */
export async function logSlowStatements(databaseUrl: string, thresholdMs: number): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const name = (await client.query<{ db: string }>('SELECT current_database() AS db')).rows[0]!
      .db;
    const database = client.escapeIdentifier(name);
    for (const setting of [
      `log_min_duration_statement = ${thresholdMs}`,
      'log_lock_waits = on',
      `deadlock_timeout = '${thresholdMs}ms'`,
    ]) {
      await client.query(`ALTER DATABASE ${database} SET ${setting}`);
    }
  } finally {
    await client.end();
  }
}

/** The relays' advisory locks by the key PostgreSQL logs (`[database,namespace,key,2]`). */
const LOCK_NAMES = new Map(
  ['search-order', 'retention', 'migrations'].map((name) => [
    `${JOB_LOCK_NAMESPACE},${jobLockKey(name)},2]`,
    name,
  ]),
);
const namedLocks = (what: string): string =>
  what.replace(/advisory lock \[\d+,(\d+,-?\d+,2\])/, (lock, key: string) => {
    const name = LOCK_NAMES.get(key);
    return name === undefined ? lock : `advisory lock "${name}"`;
  });

/**
 * The statements and lock waits logged between `fromMs` and `toMs`: the slowest `most`
 * statements and every lock wait (a line when it ended, with how long it took), in time order.
 */
export function slowStatementsBetween(
  log: string,
  fromMs: number,
  toMs: number,
  zeroMs: number,
  most = 25,
): string[] {
  const took = (what: string): number => Number(/^duration: ([\d.]+) ms/.exec(what)?.[1] ?? 0);
  const lines = linesSince(log, fromMs, /^duration: |acquired /, toMs);
  const statements = lines.filter((line) => line.what.startsWith('duration'));
  const slowest = new Set(
    [...statements].sort((a, b) => took(b.what) - took(a.what)).slice(0, most),
  );
  return lines
    .filter((line) => slowest.has(line) || !line.what.startsWith('duration'))
    .map(
      (line) => `${at(line, zeroMs)} ${namedLocks(line.what).replace(/\s+/g, ' ').slice(0, 160)}`,
    );
}
