import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createAutomation,
  getRun,
  setExecutor,
  waitForRun,
  webhookTrigger,
} from '../../support/automations.js';
import type { ChildRelay } from '../../support/child-relay.js';
import {
  getDelivery,
  listDeliveries,
  type Delivery,
  type DeliveryWithPayload,
} from '../../support/deliveries.js';
import { bearer, postDelivery, tempDir, type CreatedWebhook } from '../../support/relay.js';
import { startSenders, type Acknowledged } from '../../support/senders.js';
import { waitFor } from '../../support/wait.js';
import { ApiError } from '../../../src/shared/errors.js';
import { captureCommand } from '../runs/capture-command.js';
import { clientOf, createWebhook, ingressOn, useTwoRelays } from './two-relays.js';

const WEBHOOKS = 6;
const LEASE_MS = 3_000;

const startedRuns = (out: string): string[] =>
  existsSync(join(out, 'started.log'))
    ? readFileSync(join(out, 'started.log'), 'utf8').trim().split('\n')
    : [];

/** The programs blocked runs left behind (a killed relay's program outlives it). */
function stopPrograms(out: string): void {
  for (const entry of existsSync(out) ? readdirSync(out) : []) {
    const pidFile = join(out, entry, 'pid');
    if (!existsSync(pidFile)) continue;
    try {
      process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/**
 * PRODUCT §16, with two relays on one PostgreSQL behind a load balancer: relay A is killed with
 * SIGKILL while senders post to both. Every delivery either relay answered 202 is in the shared
 * log exactly once, byte for byte; relay B keeps answering 202s; the run A was executing stays
 * `running` until its lease ends (HOOKPORT_RUN_LEASE_MS, shortened here), then becomes
 * `interrupted` and is never run again, while B's own long run, whose lease B keeps renewing, is
 * left alone and finishes, and the queued run is executed by B, once.
 */
describe('one of two relays killed mid-load', () => {
  const replicas = useTwoRelays();
  const outs: string[] = [];
  afterEach(() => {
    for (const out of outs.splice(0)) {
      stopPrograms(out);
      rmSync(out, { recursive: true, force: true });
    }
  });

  it(
    'loses no acknowledged delivery, keeps serving on the other relay, and interrupts the dead relay’s run after its lease without running it again',
    { timeout: 120_000 },
    async () => {
      const { a, b } = await replicas.start({ HOOKPORT_RUN_LEASE_MS: String(LEASE_MS) });
      const out = tempDir('hookport-replica-kill-');
      outs.push(out);

      // Runs: one long run on each relay (one at a time per relay), and a third one queued.
      const jobs = await createWebhook(a, { name: 'jobs' });
      await createAutomation(clientOf(a), {
        name: 'long-job',
        triggers: [webhookTrigger([jobs.webhook.uid])],
      });
      await setExecutor(clientOf(a), captureCommand(out, { concurrency: 1 }));
      const queueRun = async (relay: ChildRelay, n: number): Promise<string> => {
        const sent = await postDelivery(
          ingressOn(relay, jobs.ingressUrl),
          JSON.stringify({ mode: 'block', n }),
          bearer(jobs.secret),
        );
        expect(sent.status).toBe(202);
        return (await getDelivery(clientOf(relay), sent.body.delivery_id!)).runIds[0]!;
      };
      const runIds = [await queueRun(a, 1), await queueRun(b, 2)];
      await waitFor(
        () => runIds.every((id) => existsSync(join(out, id, 'pid'))),
        'both long runs to start their programs',
        { timeoutMs: 30_000 },
      );
      const ranBy = (id: string): ChildRelay[] =>
        [a, b].filter((relay) => existsSync(join(relay.dataDir, 'runs', id)));
      expect(runIds.map((id) => ranBy(id).length)).toEqual([1, 1]);
      const onA = runIds.find((id) => ranBy(id)[0] === a)!;
      const onB = runIds.find((id) => ranBy(id)[0] === b)!;
      expect(onA).toBeDefined();
      expect(onB).toBeDefined();
      const queued = await queueRun(b, 3);
      expect((await getRun(clientOf(b), queued)).status).toBe('queued');

      // Load on both relays, on the same webhooks.
      const hooks: CreatedWebhook[] = [];
      for (let i = 0; i < WEBHOOKS; i++) hooks.push(await createWebhook(a, { name: `load-${i}` }));
      const targetsOn = (relay: ChildRelay) =>
        hooks.map((hook) => ({ url: ingressOn(relay, hook.ingressUrl), secret: hook.secret! }));
      const loadA = startSenders(targetsOn(a), { tag: 'a' });
      const loadB = startSenders(targetsOn(b), { tag: 'b' });
      await waitFor(
        () => loadA.acknowledged.length >= 40 && loadB.acknowledged.length >= 40,
        '40 acknowledged deliveries on each relay',
        { timeoutMs: 60_000 },
      );
      a.child.kill('SIGKILL');
      expect(await a.exited).toEqual({ code: null, signal: 'SIGKILL' });
      // Its lease was renewed a moment ago: the run is still running, for now.
      expect((await getRun(clientOf(b), onA)).status).toBe('running');
      const bAtKill = loadB.acknowledged.length;
      await loadA.done;

      // B keeps answering 202s after A is gone (until each webhook's 60 are used).
      await waitFor(
        () => loadB.acknowledged.length >= bAtKill + 20,
        '20 more deliveries acknowledged by B after the kill',
        { timeoutMs: 30_000 },
      );
      loadB.stop();
      await loadB.done;
      // The kill landed mid-load on A (requests left unanswered), never on B.
      expect(loadA.failures).toBeGreaterThan(0);
      expect(loadB.failures).toBe(0);
      expect([...loadB.statuses.keys()].every((s) => s === 202 || s === 429)).toBe(true);
      expect([...loadA.statuses.keys()].every((s) => s === 202 || s === 429)).toBe(true);
      const fresh = await createWebhook(b, { name: 'after-the-kill' });
      expect(
        (await postDelivery(fresh.ingressUrl, '{"still":"here"}', bearer(fresh.secret))).status,
      ).toBe(202);

      // Every 202 from either relay, read through B, once and byte for byte.
      const acknowledged: Acknowledged[] = [...loadA.acknowledged, ...loadB.acknowledged];
      const wrong: string[] = [];
      for (const { id, body } of acknowledged) {
        const entry = await childApiGet(b, id);
        if (entry?.label !== 'Accepted' || entry.payload !== body) wrong.push(id);
      }
      expect(wrong).toEqual([]);
      const log: Delivery[] = [];
      for (const hook of hooks)
        log.push(...(await listDeliveries(clientOf(b), hook.webhook.uid, { limit: 500 })).items);
      const logged = new Set(log.map((entry) => entry.id));
      expect(acknowledged.filter(({ id }) => !logged.has(id))).toEqual([]);
      // Once: no body was stored twice (bodies are all different; the identity is their hash).
      const identities = log.filter((e) => e.label === 'Accepted').map((e) => e.identity);
      expect(new Set(identities).size).toBe(identities.length);
      expect(log.filter((e) => e.label === 'Duplicate')).toEqual([]);

      // A's run becomes interrupted once its lease ends; B's run, renewed all along, is left alone.
      const interrupted = await waitForRun(clientOf(b), onA, ['interrupted'], LEASE_MS * 3);
      // A's program outlived A on this machine: B, ending the run, stopped it too.
      expect(interrupted.error).toMatch(
        /^the relay running this run stopped \(its lease ended\); its program \(process group \d+\) was still running on this machine and was stopped/,
      );
      const programOfA = Number(readFileSync(join(out, onA, 'pid'), 'utf8'));
      await waitFor(() => !isAlive(programOfA), "A's program to be stopped", { timeoutMs: 10_000 });
      expect((await getRun(clientOf(b), onB)).status).toBe('running');

      // Released, B's run finishes and B executes the queued run; A's run is never run again.
      writeFileSync(join(out, 'release'), '');
      expect((await waitForRun(clientOf(b), onB, undefined, 30_000)).status).toBe('succeeded');
      expect((await waitForRun(clientOf(b), queued, undefined, 30_000)).status).toBe('succeeded');
      expect(ranBy(queued)).toEqual([b]);
      expect(startedRuns(out).toSorted()).toEqual([onA, onB, queued].toSorted());
      expect((await getRun(clientOf(b), onA)).status).toBe('interrupted');
    },
  );
});

async function childApiGet(relay: ChildRelay, id: string): Promise<DeliveryWithPayload | null> {
  return clientOf(relay)
    .call('deliveries.get', { id })
    .catch((error: unknown) => {
      if (error instanceof ApiError && error.code === 'not_found') return null;
      throw error;
    });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
