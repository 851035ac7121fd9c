import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';

/**
 * A SQLite file (and its -wal and -shm) readable by its owner only, created so if missing: every
 * file of the relay holds payloads or what they say. One an earlier version left readable is
 * tightened; SQLite gives a new -wal and -shm the file's own mode.
 */
export function ownerOnly(file: string): void {
  closeSync(openSync(file, 'a', 0o600));
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    if (existsSync(path)) chmodSync(path, 0o600);
  }
}
