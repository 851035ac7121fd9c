import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  processStart,
  stillRunning,
  stopProcessGroup,
  type RunProcess,
} from '../runs/run-process.js';

const FILE = 'tunnel-process.json';

/**
 * The tunnel program's process group, kept in the data dir as a command run's is kept in its
 * row: a relay killed with SIGKILL leaves it running, and the next start stops it. A file, not
 * a table: each relay runs its own tunnel, on its own machine.
 */
export class TunnelProcessRecord {
  private readonly file: string;

  constructor(dataDir: string) {
    this.file = join(dataDir, FILE);
  }

  record(group: number | null): void {
    if (group === null) {
      rmSync(this.file, { force: true });
      return;
    }
    const recorded: RunProcess = { group, started: processStart(group) };
    writeFileSync(this.file, JSON.stringify(recorded), { mode: 0o600 });
  }

  /** Stops a program a previous relay left running; true when there was one. */
  stopLeftOver(): boolean {
    let recorded: RunProcess;
    try {
      recorded = JSON.parse(readFileSync(this.file, 'utf8')) as RunProcess;
    } catch {
      return false;
    }
    rmSync(this.file, { force: true });
    if (typeof recorded.group !== 'number' || !stillRunning(recorded)) return false;
    stopProcessGroup(recorded.group);
    return true;
  }
}
