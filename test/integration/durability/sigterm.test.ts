import { existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { childApi, spawnServe, type ChildRelay } from '../../support/child-relay.js';
import { tempDir, type CreatedWebhook } from '../../support/relay.js';
import { startSenders } from '../../support/senders.js';
import { waitFor } from '../../support/wait.js';

/**
 * PRODUCT §12: SIGTERM drains in-flight requests, then closes the database cleanly: exit code 0,
 * the WAL checkpointed away, and every acknowledged delivery in the file.
 */
describe('a relay stopped with SIGTERM under load', () => {
  let relay: ChildRelay | null = null;
  const dataDir = tempDir();
  afterEach(async () => {
    if (relay && relay.child.exitCode === null) {
      relay.child.kill('SIGKILL');
      await relay.exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'answers what it started, exits 0 and leaves a clean database',
    { timeout: 120_000 },
    async () => {
      relay = await spawnServe(dataDir);
      const targets: Array<{ url: string; secret: string }> = [];
      for (let i = 0; i < 4; i++) {
        const created = await childApi<CreatedWebhook>(relay, 'POST', '/api/webhooks', {
          name: `s-${i}`,
        });
        targets.push({ url: created.body.ingressUrl, secret: created.body.secret! });
      }
      const load = startSenders(targets);
      await waitFor(() => load.acknowledged.length >= 50, '50 acknowledged deliveries', {
        timeoutMs: 60_000,
      });
      relay.child.kill('SIGTERM');
      const exit = await relay.exited;
      load.stop();
      await load.done;

      expect(exit).toEqual({ code: 0, signal: null });
      expect(relay.output()).toContain('Received SIGTERM');
      // Nothing the relay answered was a server error.
      expect([...load.statuses.keys()].every((s) => s < 500)).toBe(true);

      const wal = join(dataDir, 'hookport.sqlite-wal');
      expect(existsSync(wal) ? statSync(wal).size : 0).toBe(0);

      const db = new Database(join(dataDir, 'hookport.sqlite'));
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        const payload = db.prepare<[string], { body: Buffer }>(
          'SELECT body FROM payloads WHERE delivery_id = ?',
        );
        const lost = load.acknowledged.filter(
          ({ id, body }) => payload.get(id)?.body.toString('utf8') !== body,
        );
        expect(lost).toEqual([]);
      } finally {
        db.close();
      }
    },
  );
});
