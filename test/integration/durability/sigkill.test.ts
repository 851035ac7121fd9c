import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { childApi, spawnServe, type ChildRelay } from '../../support/child-relay.js';
import type { DeliveryWithPayload } from '../../support/deliveries.js';
import { tempDir, type CreatedWebhook } from '../../support/relay.js';
import { startSenders } from '../../support/senders.js';
import { waitFor } from '../../support/wait.js';

const SENDERS = 8;

/**
 * PRODUCT §3: a process crash after a 202 loses nothing. `hookport serve` is killed with SIGKILL
 * while eight senders post at once; restarted on the same data dir, every delivery that got a
 * 202 is in the log with its payload, byte for byte.
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
      for (let i = 0; i < SENDERS; i++) {
        const created = await childApi<CreatedWebhook>(first, 'POST', '/api/webhooks', {
          name: `sender-${i}`,
        });
        targets.push({ url: created.body.ingressUrl, secret: created.body.secret! });
      }

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
      }
      expect(missing).toEqual([]);
    },
  );
});
