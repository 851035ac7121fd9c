import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createAutomation,
  getRun,
  listRuns,
  setExecutor,
  waitForRun,
  webhookTrigger,
} from '../../support/automations.js';
import { getDelivery } from '../../support/deliveries.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';
import { waitFor } from '../../support/wait.js';
import type { MethodInput } from '../../../src/shared/contract/index.js';
import { newRunId } from '../../../src/main/ids.js';
import { sqliteDbOf } from '../../../src/main/store/sqlite/sqlite-store.js';

const FAIL = { kind: 'command' as const, command: '/bin/sh', args: ['-c', 'exit 3'] };

describe('POST /api/runs/rerun: re-run failed runs in bulk', () => {
  let relay: TestRelay;
  let send: (body: string) => Promise<string[]>;
  let uid: string;
  beforeEach(async () => {
    relay = await startTestRelay();
    const created = await relay.createWebhook({ name: 'ci' });
    uid = created.webhook.uid;
    send = async (body) => {
      const sent = await postDelivery(created.ingressUrl, body, bearer(created.secret));
      return (await getDelivery(relay, sent.body.delivery_id!)).runIds;
    };
  });
  afterEach(() => relay.stop());

  const rerunMany = (input: MethodInput<'runs.rerunMany'>) => relay.call('runs.rerunMany', input);

  it('re-runs the 3 failed runs of an automation once each, linked to the runs they repeat', async () => {
    const deploy = await createAutomation(relay, {
      name: 'deploy',
      triggers: [webhookTrigger([uid], { job: 'deploy' })],
    });
    await createAutomation(relay, {
      name: 'lint',
      triggers: [webhookTrigger([uid], { job: 'lint' })],
    });
    await setExecutor(relay, FAIL);
    const failed: string[] = [];
    for (const n of [1, 2, 3]) failed.push(...(await send(JSON.stringify({ job: 'deploy', n }))));
    const [otherFailed] = await send('{"job":"lint"}');
    for (const id of [...failed, otherFailed!])
      expect((await waitForRun(relay, id)).status).toBe('failed');
    await setExecutor(relay, { kind: 'record' });

    const preview = await rerunMany({ status: 'failed', automationId: deploy.id, dryRun: true });
    expect(preview).toEqual({ count: 3, runs: [], skipped: [], remaining: 0 });
    expect((await listRuns(relay)).items).toHaveLength(4);

    const done = await rerunMany({ status: 'failed', automationId: deploy.id });
    expect(done.count).toBe(3);
    expect(done.runs.map((r) => r.rerunOf).sort()).toEqual([...failed].sort());
    for (const run of done.runs) {
      expect(run.automationId).toBe(deploy.id);
      expect((await waitForRun(relay, run.id)).status).toBe('succeeded');
      expect((await getRun(relay, run.rerunOf!)).reruns).toEqual([run.id]);
    }
    // Lint's failed run was not touched.
    expect((await getRun(relay, otherFailed!)).reruns).toEqual([]);

    // Never twice: a second bulk call finds nothing, and Re-run of one says where its re-run is.
    expect((await rerunMany({ status: 'failed', automationId: deploy.id })).count).toBe(0);
    const again = await relay.callError('runs.rerun', { id: failed[0]! });
    expect(again.code).toBe('conflict');
    const rerunOfFirst = done.runs.find((r) => r.rerunOf === failed[0])!.id;
    expect(again.message).toBe(
      `${failed[0]} was already re-run as ${rerunOfFirst}; re-run that one instead.`,
    );
    expect((await listRuns(relay)).items).toHaveLength(7);
  });

  it('takes only runs queued since a time, and refuses bad input by path', async () => {
    await createAutomation(relay, { name: 'deploy', triggers: [webhookTrigger([uid])] });
    await setExecutor(relay, FAIL);
    const [old] = await send('{"n":1}');
    await waitForRun(relay, old!);
    // The cut falls after the old run was queued and before the recent one is.
    const cutMs = Date.now() + 1;
    await waitFor(() => Date.now() >= cutMs, 'the clock to pass the cut');
    const cut = new Date(cutMs).toISOString();
    const [recent] = await send('{"n":2}');
    await waitForRun(relay, recent!);
    await setExecutor(relay, { kind: 'record' });

    const since = await rerunMany({ status: 'failed', since: cut });
    expect(since.runs.map((r) => r.rerunOf)).toEqual([recent]);
    const byEpoch = await rerunMany({ status: 'failed', since: 0, dryRun: true });
    expect(byEpoch.count).toBe(1);

    const cases: Array<[Record<string, unknown>, string]> = [
      [{ status: 'succeeded' }, 'status'],
      [{}, 'status'],
      [{ status: 'failed', since: 'last tuesday' }, 'since'],
      [{ status: 'failed', automationId: 'deploy' }, 'automationId'],
    ];
    for (const [input, path] of cases) {
      const refused = await relay.callError('runs.rerunMany', input);
      expect(refused.code, JSON.stringify(input)).toBe('invalid_input');
      expect(refused.path).toBe(path);
    }
    // The role check belongs to the transport: a view token's refusal is read as HTTP.
    const viewer = await relay.call('tokens.create', { name: 'ro', role: 'view' });
    const asViewer = await relay.api(
      'POST',
      '/api/runs/rerun',
      { status: 'failed' },
      {
        token: viewer.value,
      },
    );
    expect(asViewer.status).toBe(403);
  });

  it('skips runs that cannot be re-run, saying why, and never lets 500 of them block the rest', async () => {
    const doomed = await createAutomation(relay, {
      name: 'doomed',
      triggers: [webhookTrigger([uid], { job: 'doomed' })],
    });
    await createAutomation(relay, {
      name: 'deploy',
      triggers: [webhookTrigger([uid], { job: 'deploy' })],
    });
    await setExecutor(relay, FAIL);
    const [ofDeleted] = await send('{"job":"doomed"}');
    const [pruned] = await send('{"job":"deploy","n":1}');
    const [runnable] = await send('{"job":"deploy","n":2}');
    for (const id of [ofDeleted!, pruned!, runnable!]) await waitForRun(relay, id);
    await setExecutor(relay, { kind: 'record' });
    await relay.call('automations.delete', { id: doomed.id });
    const db = sqliteDbOf(relay.core.store);
    const prunedRun = await getRun(relay, pruned!);
    db.prepare('DELETE FROM payloads WHERE delivery_id = ?').run(prunedRun.deliveryId);
    // 600 older failed runs of a deleted automation: more than one call's 500.
    const first = await getRun(relay, ofDeleted!);
    const insert = db.prepare(`
      INSERT INTO runs (id, automation_id, delivery_id, webhook_uid, status, input, created_at)
      VALUES (?, 'aut_gone', ?, ?, 'failed', '{}', ?)`);
    const longAgo = Date.now() - 86_400_000;
    for (let i = 0; i < 600; i++) insert.run(newRunId(longAgo + i), first.deliveryId, uid, longAgo);

    const preview = await rerunMany({ status: 'failed', dryRun: true });
    expect(preview.count).toBe(1);
    expect(preview.remaining).toBe(0);
    const done = await rerunMany({ status: 'failed' });
    expect(done.runs.map((r) => r.rerunOf)).toEqual([runnable]);
    expect(done.skipped).toHaveLength(500);
    expect(done.skipped[0]!.reason).toMatch(/^The automation of run_\w+ was deleted; /);

    // Once nothing older is in the way, each reason is its own run's.
    db.prepare(`DELETE FROM runs WHERE automation_id = 'aut_gone'`).run();
    const rest = await rerunMany({ status: 'failed' });
    expect(rest.count).toBe(0);
    expect(rest.skipped).toEqual([
      {
        id: ofDeleted,
        reason: `The automation of ${ofDeleted} was deleted; there is nothing to re-run.`,
      },
      { id: pruned, reason: `The payload of ${prunedRun.deliveryId} is no longer stored.` },
    ]);
  });
});
