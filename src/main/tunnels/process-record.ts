import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  processStart,
  stillRunning,
  stopProcessGroup,
  type RunProcess,
} from '../runs/run-process.js';

/** Where each relay of this data dir records its tunnel program, one file per relay. */
export const RECORD_DIR = 'tunnel-processes';

interface Recorded extends RunProcess {
  /** The relay process that started it: while that one lives, the program is its to stop. */
  owner: RunProcess;
}

/**
 * The tunnel program's process group, kept in the data dir as a command run's is kept in its
 * row: a relay killed with SIGKILL leaves it running, and the next start stops it. Files, not a
 * table: each relay runs its own tunnel on its own machine, and replicas sharing a data dir
 * each keep their own file (named by relay process and ingress port).
 */
export class TunnelProcessRecord {
  private readonly dir: string;
  private readonly file: string;
  private readonly owner: RunProcess = { group: process.pid, started: processStart(process.pid) };

  constructor(dataDir: string, port: number) {
    this.dir = join(dataDir, RECORD_DIR);
    this.file = `${process.pid}-${port}.json`;
  }

  record(group: number | null): void {
    const path = join(this.dir, this.file);
    if (group === null) {
      rmSync(path, { force: true });
      return;
    }
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const recorded: Recorded = { group, started: processStart(group), owner: this.owner };
    writeFileSync(path, JSON.stringify(recorded), { mode: 0o600 });
  }

  /** Stops programs whose relay is gone (killed, crashed); how many were still running. */
  stopLeftOver(): number {
    let stopped = 0;
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return 0; // none recorded yet
    }
    for (const name of names) {
      const path = join(this.dir, name);
      let recorded: Recorded;
      try {
        recorded = JSON.parse(readFileSync(path, 'utf8')) as Recorded;
      } catch {
        rmSync(path, { force: true });
        continue;
      }
      if (name !== this.file && recorded.owner && stillRunning(recorded.owner)) continue;
      rmSync(path, { force: true });
      if (typeof recorded.group === 'number' && stillRunning(recorded)) {
        stopProcessGroup(recorded.group);
        stopped += 1;
      }
    }
    return stopped;
  }
}
