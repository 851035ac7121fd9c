import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { childApi, spawnServe, type ChildRelay } from '../../support/child-relay.js';
import type { DeliveryWithPayload } from '../../support/deliveries.js';
import { tempDir, type CreatedWebhook } from '../../support/relay.js';
import { startSenders } from '../../support/senders.js';
import { waitFor } from '../../support/wait.js';

const SENDERS = 8;

/**
 * PRODUCT §3: a process crash after a 202 loses nothing. `hookport serve` is killed with SIGKILL
 * while eight senders post at once (their batches committed on the writer thread); restarted on
 * the same data dir, every delivery that got a 202 is in the log with its payload, byte for
 * byte, and with exactly the one run its automation queued: none lost, none doubled.
 */
describe('a relay killed mid-load', () => {
  const running: ChildRelay[] = [];
  const dataDir = tempDir();
  afterEach(async () => {
    for (const relay of running.splice(0)) {
      relay.child.kill('SIGKILL');
      await relay.exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'has every acknowledged delivery, byte for byte, after a restart',
    { timeout: 120_000 },
    async () => {
      const first = await spawnServe(dataDir);
      running.push(first);
      const targets: Array<{ url: string; secret: string }> = [];
      const uids: string[] = [];
      for (let i = 0; i < SENDERS; i++) {
        const created = await childApi<CreatedWebhook>(first, 'POST', '/api/webhooks', {
          name: `sender-${i}`,
        });
        targets.push({ url: created.body.ingressUrl, secret: created.body.secret! });
        uids.push(created.body.webhook.uid);
      }
      const automation = await childApi<{ id: string }>(first, 'POST', '/api/automations', {
        name: 'every-delivery',
        prompt: 'Record it.',
        triggers: [{ provider: 'webhook', event: 'received', filter: { webhook_ids: uids } }],
      });
      expect(automation.status).toBe(201);

      const load = startSenders(targets);
      await waitFor(() => load.acknowledged.length >= 150, '150 acknowledged deliveries', {
        timeoutMs: 60_000,
      });
      first.child.kill('SIGKILL');
      expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
      running.splice(0);
      await load.done;

      // The kill really landed mid-load: some requests never got an answer.
      expect(load.failures).toBeGreaterThan(0);
      expect([...load.statuses.keys()].every((s) => s === 202 || s === 429)).toBe(true);

      const second = await spawnServe(dataDir);
      running.push(second);
      const missing: string[] = [];
      for (const { id, body } of load.acknowledged) {
        const entry = await childApi<DeliveryWithPayload>(second, 'GET', `/api/deliveries/${id}`);
        if (
          entry.status !== 200 ||
          entry.body.label !== 'Accepted' ||
          entry.body.payload !== body
        ) {
          missing.push(id);
          continue;
        }
        expect(entry.body.size).toBe(Buffer.byteLength(body));
        expect(entry.body.runIds).toHaveLength(1);
      }
      expect(missing).toEqual([]);

      // One run per accepted delivery, whatever state the kill left it in; never two.
      const db = new Database(join(dataDir, 'hookport.sqlite'), { readonly: true });
      try {
        const runsPerDelivery = db
          .prepare<[], { runs: number; accepted: number }>(
            `SELECT (SELECT count(*) FROM runs) AS runs,
                    (SELECT count(*) FROM deliveries WHERE label = 'Accepted') AS accepted`,
          )
          .get()!;
        expect(runsPerDelivery.runs).toBe(runsPerDelivery.accepted);
        const doubled = db
          .prepare('SELECT delivery_id FROM runs GROUP BY delivery_id HAVING count(*) > 1')
          .all();
        expect(doubled).toEqual([]);
      } finally {
        db.close();
      }
    },
  );
});
