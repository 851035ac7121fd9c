import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunDetail } from '../../../src/shared/contract/runs.js';
import {
  createAutomation,
  setExecutor,
  waitForRun,
  webhookTrigger,
} from '../../support/automations.js';
import { clientOf, spawnServe, type ChildRelay } from '../../support/child-relay.js';
import { getDelivery } from '../../support/deliveries.js';
import { bearer, postDelivery, startTestRelay, tempDir } from '../../support/relay.js';
import { waitFor } from '../../support/wait.js';
import { captureCommand } from './capture-command.js';

const startedRuns = (out: string): string[] =>
  existsSync(join(out, 'started.log'))
    ? readFileSync(join(out, 'started.log'), 'utf8').trim().split('\n')
    : [];

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

function killOrphan(out: string, runId: string): void {
  const pidFile = join(out, runId, 'pid');
  if (!existsSync(pidFile)) return;
  try {
    process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
  } catch {
    // Already gone.
  }
}

describe('runs across a crash (kill -9) and a restart', () => {
  it('keeps an accepted run queued through a crash and executes it exactly once; a running one becomes interrupted and its program is stopped', async () => {
    const dataDir = tempDir('hookport-crash-');
    const out = tempDir('hookport-crash-out-');
    cleanups.push(() => {
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(out, { recursive: true, force: true });
    });

    const first = await spawnServe(dataDir);
    cleanups.push(() => {
      first.child.kill('SIGKILL');
    });
    const api = clientOf(first);
    const { secret, ingressUrl, webhook } = await api.call('webhooks.create', {
      name: 'github-prod',
    });
    const path = new URL(ingressUrl).pathname;
    await createAutomation(api, {
      name: 'agent',
      triggers: [webhookTrigger([webhook.uid])],
    });
    // One at a time: while the first run blocks, the second stays queued.
    await setExecutor(api, captureCommand(out, { concurrency: 1 }));

    // Each start listens on fresh ports: deliveries go to whichever relay is up.
    const send = async (relay: ChildRelay, body: string): Promise<string> => {
      const sent = await postDelivery(relay.ingressUrl + path, body, bearer(secret));
      expect(sent.status).toBe(202);
      return (await getDelivery(clientOf(relay), sent.body.delivery_id!)).runIds[0]!;
    };
    const running = await send(first, '{"mode":"block"}');
    cleanups.push(() => killOrphan(out, running));
    await waitForRun(api, running, ['running']);
    await waitFor(
      () => existsSync(join(out, running, 'pid')),
      'the first run to start its program',
    );
    const queued = await send(first, '{"mode":"ok","n":2}');
    expect((await waitForRun(api, queued, ['queued'])).status).toBe('queued');

    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    // Its own process group: the program outlives the relay that started it.
    const orphan = Number(readFileSync(join(out, running, 'pid'), 'utf8'));
    expect(alive(orphan)).toBe(true);

    const second = await spawnServe(dataDir);
    cleanups.push(async () => {
      second.child.kill('SIGTERM');
      await second.exited;
    });
    const api2 = clientOf(second);
    const executed = await waitForRun(api2, queued);
    expect(executed.status).toBe('succeeded');
    const interrupted: RunDetail = await waitForRun(api2, running);
    expect(interrupted).toMatchObject({
      status: 'interrupted',
      error: `the relay stopped while this run was running; its program (process group ${orphan}) was still running when the relay started again, and was stopped; it is not re-run automatically (Re-run it by hand)`,
    });
    // The restarted relay found the program it had started and stopped it.
    await waitFor(() => !alive(orphan), 'the left-over program to be stopped');
    expect(second.output()).toContain(
      `[runs] ${running}: its program (process group ${orphan}) outlived the relay; stopping it`,
    );

    // A later run goes through after both: by then the queue has been read more than once.
    const later = await send(second, '{"mode":"ok","n":3}');
    expect((await waitForRun(api2, later)).status).toBe('succeeded');
    expect(startedRuns(out).sort()).toEqual([running, queued, later].sort());
    expect((await waitForRun(api2, running)).status).toBe('interrupted');
  });

  it('a graceful stop ends a running command and marks it interrupted; the next start does not re-run it', async () => {
    const dataDir = tempDir('hookport-stop-');
    const out = tempDir('hookport-stop-out-');
    cleanups.push(() => {
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(out, { recursive: true, force: true });
    });
    const relay = await startTestRelay({ dataDir });
    const created = await relay.createWebhook({ name: 'cron' });
    await createAutomation(relay, {
      name: 'nightly',
      triggers: [webhookTrigger([created.webhook.uid])],
    });
    await setExecutor(relay, captureCommand(out));
    const sent = await postDelivery(created.ingressUrl, '{"mode":"block"}', bearer(created.secret));
    const [runId] = (await getDelivery(relay, sent.body.delivery_id!)).runIds;
    cleanups.push(() => killOrphan(out, runId!));
    await waitFor(() => existsSync(join(out, runId!, 'pid')), 'the run to start its program');

    await relay.stop();
    const again = await startTestRelay({ dataDir });
    cleanups.push(() => again.stop());
    expect(await waitForRun(again, runId!)).toMatchObject({
      status: 'interrupted',
      error:
        'the relay was shut down while this run was running; it is not re-run automatically (Re-run it by hand)',
    });
    writeFileSync(join(out, 'release'), '');
    // Re-run by hand: a new run, linked, which this time finishes.
    const rerun = await again.call('runs.rerun', { id: runId! });
    expect(rerun.rerunOf).toBe(runId);
    expect((await waitForRun(again, rerun.id)).status).toBe('succeeded');
    expect(startedRuns(out)).toEqual([runId, rerun.id]);
  });
});
