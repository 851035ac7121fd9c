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
});
