import { readdirSync, readFileSync } from 'node:fs';

/** Linux's USER_HZ: /proc reports CPU time in these ticks. */
const TICKS_PER_SECOND = 100;

/** CPU time (ms) used so far, by process ID. */
export type CpuSample = Map<number, number>;

interface ProcStat {
  ppid: number;
  /** utime + stime of the process (all its threads), in ms. */
  cpuMs: number;
}

/**
 * Null once the process is gone. The command name may hold spaces: fields start after ") ".
 * `thread`: one thread's own time (its /proc/<pid>/task/<tid>/stat) instead of the process's.
 */
function procStat(pid: number, thread?: number): ProcStat | null {
  try {
    const file = thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`;
    const text = readFileSync(file, 'utf8');
    const fields = text.slice(text.lastIndexOf(') ') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return { ppid: Number(fields[1]), cpuMs: (ticks * 1000) / TICKS_PER_SECOND };
  } catch {
    return null;
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

export function processesCpu(pids: number[]): CpuSample {
  return new Map(pids.map((pid) => [pid, procStat(pid)?.cpuMs ?? 0]));
}

/**
 * The main thread's CPU time alone (its thread ID is the process's): a Node server's JavaScript,
 * without its worker threads and V8's garbage-collection helpers.
 */
export function mainThreadCpu(pid: number): CpuSample {
  return new Map([[pid, procStat(pid, pid)?.cpuMs ?? 0]]);
}

/**
 * The PostgreSQL processes working for one database: its backends (PostgreSQL titles each
 * `postgres: <user> <database> …`) and autovacuum workers, and the cluster's own processes (WAL
 * writer, checkpointer, background writer), which every database shares; not the backends of
 * other databases, whose relays keep polling while another path is measured.
 */
export function postgresCpu(postmasterPid: number, database: string): CpuSample {
  const sample: CpuSample = new Map();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const stat = procStat(pid);
    if (stat?.ppid !== postmasterPid) continue;
    const words = commandLine(pid)
      .split(/[\s\0]+/)
      .filter(Boolean);
    const worksFor =
      words[1] === 'autovacuum' && words[2] === 'worker'
        ? words[3]
        : words.length > 3
          ? words[2]
          : undefined;
    if (worksFor === undefined || worksFor === database) sample.set(pid, stat.cpuMs);
  }
  return sample;
}

/**
 * CPU time (ms) used between two samples. A process that ended in between took its time since
 * the first sample with it (the servers keep their connections open while measured); one that
 * started counts whole.
 */
export function cpuUsedBetween(before: CpuSample, after: CpuSample): number {
  let used = 0;
  for (const [pid, ms] of after) used += ms - (before.get(pid) ?? 0);
  return used;
}
