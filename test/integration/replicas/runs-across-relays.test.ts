import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createAutomation,
  setExecutor,
  waitForRun,
  webhookTrigger,
} from '../../support/automations.js';
import { getDelivery } from '../../support/deliveries.js';
import { bearer, postDelivery, tempDir } from '../../support/relay.js';
import { captureCommand } from '../runs/capture-command.js';
import { clientOf, createWebhook, ingressOn, useTwoRelays } from './two-relays.js';

const DELIVERIES = 20;

/**
 * PRODUCT §16: a run executes on one replica at a time (claimed with FOR UPDATE SKIP LOCKED).
 * Twenty deliveries through both relays queue twenty runs of a `command` automation that
 * appends its run id to a file; both relays' dispatchers compete for the queue, and every run is
 * executed exactly once, by one of them, and succeeds.
 */
describe('runs queued through two relays', () => {
  const replicas = useTwoRelays();
  const outs: string[] = [];
  afterEach(() => {
    for (const out of outs.splice(0)) rmSync(out, { recursive: true, force: true });
  });

  it('are each executed exactly once, by one relay or the other, and succeed', async () => {
    const { a, b } = await replicas.start();
    const out = tempDir('hookport-replica-runs-');
    outs.push(out);
    const hook = await createWebhook(a, { name: 'ci' });
    await createAutomation(clientOf(a), {
      name: 'build',
      triggers: [webhookTrigger([hook.webhook.uid])],
    });
    // Set through A, used by B too: the factory's executor is shared.
    await setExecutor(clientOf(a), captureCommand(out, { concurrency: 4 }));

    const relays = [a, b];
    const sent = await Promise.all(
      Array.from({ length: DELIVERIES }, async (_, i) => {
        const relay = relays[i % 2]!;
        const answer = await postDelivery(
          ingressOn(relay, hook.ingressUrl),
          JSON.stringify({ mode: 'ok', n: i }),
          bearer(hook.secret),
        );
        expect(answer.status).toBe(202);
        return (await getDelivery(clientOf(relay), answer.body.delivery_id!)).runIds;
      }),
    );
    const runIds = sent.flat();
    expect(runIds).toHaveLength(DELIVERIES);

    for (const [i, id] of runIds.entries()) {
      // Read through the relay that did not accept it half of the time: the runs are shared.
      const run = await waitForRun(clientOf(relays[(i + 1) % 2]!), id, undefined, 60_000);
      expect({ id, status: run.status }).toEqual({ id, status: 'succeeded' });
    }

    const started = readFileSync(join(out, 'started.log'), 'utf8').trim().split('\n');
    expect(started.toSorted()).toEqual(runIds.toSorted());

    // Each run's folder is in the data dir of the relay that executed it, and in no other.
    const ranOn = runIds.map((id) =>
      relays.filter((relay) => existsSync(join(relay.dataDir, 'runs', id))).map((r) => r.dataDir),
    );
    expect(ranOn.every((dirs) => dirs.length === 1)).toBe(true);
    const recorded = runIds.map(
      (id) => (JSON.parse(readFileSync(join(out, id, 'run.json'), 'utf8')) as { cwd: string }).cwd,
    );
    expect(recorded).toEqual(runIds.map((id, i) => join(ranOn[i]![0]!, 'runs', id)));
    // Both relays' dispatchers took part.
    expect(new Set(ranOn.flat()).size).toBe(2);
  });
});
