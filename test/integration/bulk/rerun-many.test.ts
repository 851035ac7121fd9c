import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createAutomation,
  getRun,
  listRuns,
  setExecutor,
  waitForRun,
  webhookTrigger,
  type Run,
} from '../../support/automations.js';
import { getDelivery } from '../../support/deliveries.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';
import { newRunId } from '../../../src/main/ids.js';
import { sqliteDbOf } from '../../../src/main/store/sqlite/sqlite-store.js';

type ErrorBody = { error: { code: string; message: string; path?: string } };
type Bulk = {
  count: number;
  runs: Run[];
  skipped: { id: string; reason: string }[];
  remaining: number;
};

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

  const rerunMany = (input: Record<string, unknown>, token?: string) =>
    relay.api<Bulk & ErrorBody>('POST', '/api/runs/rerun', input, token ? { token } : {});

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
    expect(preview.body).toEqual({ count: 3, runs: [], skipped: [], remaining: 0 });
    expect((await listRuns(relay)).items).toHaveLength(4);

    const done = await rerunMany({ status: 'failed', automationId: deploy.id });
    expect(done.status).toBe(200);
    expect(done.body.count).toBe(3);
    expect(done.body.runs.map((r) => r.rerunOf).sort()).toEqual([...failed].sort());
    for (const run of done.body.runs) {
      expect(run.automationId).toBe(deploy.id);
      expect((await waitForRun(relay, run.id)).status).toBe('succeeded');
      expect((await getRun(relay, run.rerunOf!)).reruns).toEqual([run.id]);
    }
    // Lint's failed run was not touched.
    expect((await getRun(relay, otherFailed!)).reruns).toEqual([]);

    // Never twice: a second bulk call finds nothing, and Re-run of one says where its re-run is.
    expect((await rerunMany({ status: 'failed', automationId: deploy.id })).body.count).toBe(0);
    const again = await relay.api<ErrorBody>('POST', `/api/runs/${failed[0]}/rerun`);
    expect(again.status).toBe(409);
    const rerunOfFirst = done.body.runs.find((r) => r.rerunOf === failed[0])!.id;
    expect(again.body.error.message).toBe(
      `${failed[0]} was already re-run as ${rerunOfFirst}; re-run that one instead.`,
    );
    expect((await listRuns(relay)).items).toHaveLength(7);
  });

  it('takes only runs queued since a time, and refuses bad input by path', async () => {
    await createAutomation(relay, { name: 'deploy', triggers: [webhookTrigger([uid])] });
    await setExecutor(relay, FAIL);
    const [old] = await send('{"n":1}');
    await waitForRun(relay, old!);
    const cut = new Date(Date.now() + 5).toISOString();
    await new Promise((resolve) => setTimeout(resolve, 10));
    const [recent] = await send('{"n":2}');
    await waitForRun(relay, recent!);
    await setExecutor(relay, { kind: 'record' });

    const since = await rerunMany({ status: 'failed', since: cut });
    expect(since.body.runs.map((r) => r.rerunOf)).toEqual([recent]);
    const byEpoch = await rerunMany({ status: 'failed', since: 0, dryRun: true });
    expect(byEpoch.body.count).toBe(1);

    const cases: Array<[Record<string, unknown>, string]> = [
      [{ status: 'succeeded' }, 'status'],
      [{}, 'status'],
      [{ status: 'failed', since: 'last tuesday' }, 'since'],
      [{ status: 'failed', automationId: 'deploy' }, 'automationId'],
    ];
    for (const [input, path] of cases) {
      const response = await rerunMany(input);
      expect(response.status, JSON.stringify(input)).toBe(400);
      expect(response.body.error.path).toBe(path);
    }
    const viewer = await relay.api<{ value: string }>('POST', '/api/tokens', {
      name: 'ro',
      role: 'view',
    });
    expect((await rerunMany({ status: 'failed' }, viewer.body.value)).status).toBe(403);
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
    expect((await relay.api('DELETE', `/api/automations/${doomed.id}`)).status).toBe(200);
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
    expect(preview.body.count).toBe(1);
    expect(preview.body.remaining).toBe(0);
    const done = await rerunMany({ status: 'failed' });
    expect(done.body.runs.map((r) => r.rerunOf)).toEqual([runnable]);
    expect(done.body.skipped).toHaveLength(500);
    expect(done.body.skipped[0]!.reason).toMatch(/^The automation of run_\w+ was deleted; /);

    // Once nothing older is in the way, each reason is its own run's.
    db.prepare(`DELETE FROM runs WHERE automation_id = 'aut_gone'`).run();
    const rest = await rerunMany({ status: 'failed' });
    expect(rest.body.count).toBe(0);
    expect(rest.body.skipped).toEqual([
      {
        id: ofDeleted,
        reason: `The automation of ${ofDeleted} was deleted; there is nothing to re-run.`,
      },
      { id: pruned, reason: `The payload of ${prunedRun.deliveryId} is no longer stored.` },
    ]);
  });
});
