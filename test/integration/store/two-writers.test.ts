import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/main/store/sqlite/db.js';
import { tempDir } from '../../support/relay.js';

/** Another thread that takes the write lock, says so, keeps it for `holdMs`, then commits. */
function holdWriteLock(file: string, holdMs: number): Promise<Worker> {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(
    `const Database = require(${JSON.stringify(driver)});
     const { parentPort } = require('node:worker_threads');
     const db = new Database(${JSON.stringify(file)});
     db.prepare('BEGIN IMMEDIATE').run();
     db.prepare("INSERT INTO settings (key, value) VALUES ('held', 'yes')").run();
     parentPort.postMessage('locked');
     Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${holdMs});
     db.prepare('COMMIT').run();
     db.close();`,
    { eval: true },
  );
  return new Promise((resolve, reject) => {
    worker.once('message', () => resolve(worker));
    worker.once('error', reject);
  });
}

/**
 * The main thread and the writer thread both write the relay's file. In WAL mode a transaction
 * that reads before it writes would get SQLITE_BUSY at once while the other holds the lock;
 * every transaction on the relay's connections takes the lock first, so it waits instead.
 */
describe('two connections writing the relay file', () => {
  const dir = tempDir();
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a read-then-write transaction waits for the other writer, then succeeds', async () => {
    const file = join(dir, 'hookport.sqlite');
    const db = openDatabase(file);
    try {
      const other = await holdWriteLock(file, 300);
      const count = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM settings');
      const insert = db.prepare("INSERT INTO settings (key, value) VALUES ('mine', ?)");
      const readThenWrite = db.transaction(() => insert.run(String(count.get()!.n)));
      readThenWrite();
      await new Promise((resolve) => other.once('exit', resolve));
      // It ran after the other commit: it saw the other's row.
      expect(db.prepare("SELECT value FROM settings WHERE key = 'mine'").pluck().get()).toBe('1');
    } finally {
      db.close();
    }
  });
});
