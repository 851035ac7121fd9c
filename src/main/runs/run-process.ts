import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** A run's program as recorded when it started: its process group, and its leader's start. */
export interface RunProcess {
  group: number;
  /** Null where the platform gives no way to tell a reused process ID apart. */
  started: string | null;
}

/**
 * When the process `pid` started, as the kernel tells it: with the process ID, this names one
 * process for good (IDs are reused; an ID with another start time is another program).
 * Linux: the boot's ID and the start time in clock ticks (/proc); macOS and other Unixes: ps.
 */
export function processStart(pid: number): string | null {
  try {
    if (process.platform === 'linux') {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the command name, which may itself hold spaces and parentheses.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
      return `${boot}:${fields[19]}`;
    }
    if (process.platform === 'win32') return null;
    const lstart = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8' });
    return lstart.trim() || null;
  } catch {
    return null; // no such process (any more)
  }
}

/** The recorded program is still running: its group's leader is the very process that started. */
export function stillRunning(recorded: RunProcess): boolean {
  return recorded.started !== null && processStart(recorded.group) === recorded.started;
}

/** After the polite SIGTERM, how long a program may take to exit before SIGKILL. */
export const KILL_GRACE_MS = 5_000;

/** SIGTERM to the whole group (a shell's children too), SIGKILL to what is left after the grace. */
export function stopProcessGroup(group: number): void {
  const signal = (name: NodeJS.Signals): boolean => {
    try {
      process.kill(-group, name);
      return true;
    } catch {
      return false; // the group is gone
    }
  };
  if (signal('SIGTERM')) setTimeout(() => signal('SIGKILL'), KILL_GRACE_MS).unref();
}
