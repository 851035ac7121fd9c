import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Vitest's global setup: every temporary file of the run (relays' data dirs, definition folders,
 * PostgreSQL clusters, sshd keys, Chromium profiles) goes under one folder, removed when the run
 * ends. Workers and the programs they start inherit TMPDIR, so `os.tmpdir()` names it: no test has
 * to remember to clean up, and a crashed one leaves nothing behind after the run either.
 */
export default function runTempDir(): () => void {
  // Each project of the config runs its global setups: the first one makes the folder.
  if (process.env.HOOKPORT_RUN_TMPDIR) return () => undefined;
  const root = mkdtempSync(join(tmpdir(), 'hookport-run-'));
  // Traversable by the postgres user a root run starts its clusters as (their own dirs stay 0700).
  chmodSync(root, 0o711);
  const before = process.env.TMPDIR;
  process.env.TMPDIR = root;
  process.env.HOOKPORT_RUN_TMPDIR = root;
  return () => {
    delete process.env.HOOKPORT_RUN_TMPDIR;
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  };
}
