import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createAutomation,
  listRuns,
  setExecutor,
  waitForRun,
  webhookTrigger,
  type Run,
} from '../../support/automations.js';
import { getDelivery } from '../../support/deliveries.js';
import {
  bearer,
  postDelivery,
  startTestRelay,
  tempDir,
  type TestRelay,
} from '../../support/relay.js';
import { captureCommand } from './capture-command.js';
import { storeConfig, storeKinds } from '../../support/stores.js';

describe.each(storeKinds)('the runs API and factory executors (%s)', (storeKind) => {
  let relay: TestRelay;
  let send: (body: string) => Promise<string[]>;
  let uid: string;
  beforeEach(async () => {
    relay = await startTestRelay(storeConfig(storeKind));
    const created = await relay.createWebhook({ name: 'github-prod' });
    uid = created.webhook.uid;
    send = async (body) => {
      const sent = await postDelivery(created.ingressUrl, body, bearer(created.secret));
      return (await getDelivery(relay, sent.body.delivery_id!)).runIds;
    };
  });
  afterEach(() => relay.stop());

  it('lists runs newest first, by automation and status, a page at a time', async () => {
    const opened = await createAutomation(relay, {
      name: 'opened',
      triggers: [webhookTrigger([uid], { action: 'opened' })],
    });
    await createAutomation(relay, { name: 'all', triggers: [webhookTrigger([uid])] });
    const ids: string[] = [];
    for (const [n, action] of ['opened', 'closed', 'opened'].entries()) {
      ids.push(...(await send(JSON.stringify({ action, n }))));
    }
    expect(ids).toHaveLength(5);
    for (const id of ids) await waitForRun(relay, id);

    const all = await listRuns(relay);
    expect(all.items.map((r) => r.id)).toEqual([...ids].sort().reverse());
    expect(all.nextBefore).toBeNull();

    const ofOpened = await listRuns(relay, { automation: opened.id });
    expect(ofOpened.items).toHaveLength(2);
    expect(ofOpened.items.every((r: Run) => r.automationName === 'opened')).toBe(true);

    expect((await listRuns(relay, { status: 'succeeded' })).items).toHaveLength(5);
    expect((await listRuns(relay, { status: 'failed' })).items).toHaveLength(0);

    const first = await listRuns(relay, { limit: 2 });
    expect(first.items).toHaveLength(2);
    const second = await listRuns(relay, { limit: 2, before: first.nextBefore! });
    const third = await listRuns(relay, { limit: 2, before: second.nextBefore! });
    expect([...first.items, ...second.items, ...third.items].map((r) => r.id)).toEqual(
      all.items.map((r) => r.id),
    );
    expect(third.nextBefore).toBeNull();

    const badStatus = await relay.callError('runs.list', { status: 'done' });
    expect(badStatus).toMatchObject({ code: 'invalid_input', path: 'status' });
  });

  it('re-runs a failed run by hand as a new run linked to it; a succeeded run cannot be re-run', async () => {
    const out = tempDir('hookport-rerun-');
    try {
      await createAutomation(relay, { name: 'flaky', triggers: [webhookTrigger([uid])] });
      await setExecutor(relay, captureCommand(out));
      const [failedId] = await send('{"mode":"exit","code":1}');
      expect((await waitForRun(relay, failedId!)).status).toBe('failed');

      const rerun = await relay.call('runs.rerun', { id: failedId! });
      expect(rerun).toMatchObject({ rerunOf: failedId, status: 'queued' });
      const again = await waitForRun(relay, rerun.id);
      expect(again.status).toBe('failed'); // same input, same program: it fails the same way
      const original = await waitForRun(relay, failedId!);
      expect(again.input).toBe(original.input);
      expect(again.deliveryId).toBe(original.deliveryId);

      await setExecutor(relay, { kind: 'record' });
      const [okId] = await send('{"mode":"ok"}');
      await waitForRun(relay, okId!);
      const refused = await relay.callError('runs.rerun', { id: okId! });
      expect(refused.code).toBe('conflict');
      expect(refused.message).toBe(
        `${okId} is succeeded; only failed or interrupted runs can be re-run.`,
      );
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('reads and sets the executor of a factory, refusing invalid configs by path', async () => {
    expect(await relay.call('factories.executor', { id: 'default' })).toEqual({
      factory: 'default',
      executor: { kind: 'record' },
      mcpForRuns: false,
    });
    const set = await relay.call('factories.update', {
      id: 'default',
      executor: { kind: 'command', command: 'claude', args: ['-p', 'PROMPT.md'] },
    });
    expect(set).toEqual({
      factory: 'default',
      executor: {
        kind: 'command',
        command: 'claude',
        args: ['-p', 'PROMPT.md'],
        timeoutSeconds: 600,
        concurrency: 1,
        shell: false,
      },
      mcpForRuns: false,
    });

    const cases: Array<[unknown, string]> = [
      [{ kind: 'command', command: 'x', args: 'a b' }, 'executor.args'],
      [{ kind: 'command', command: '' }, 'executor.command'],
      [{ kind: 'command', command: 'x', cwd: 'relative/dir' }, 'executor.cwd'],
      [{ kind: 'command', command: 'x', timeoutSeconds: 0 }, 'executor.timeoutSeconds'],
      [{ kind: 'command', command: 'x', concurrency: 1.5 }, 'executor.concurrency'],
      [{ kind: 'http', url: 'ftp://example.com/runs' }, 'executor.url'],
      [{ kind: 'http', url: 'http://runner:hunter2@127.0.0.1/x' }, 'executor.url'],
      [{ kind: 'http', url: 'http://127.0.0.1/x', maxAttempts: 0 }, 'executor.maxAttempts'],
      [{ kind: 'shell' }, 'executor.kind'],
    ];
    for (const [executor, path] of cases) {
      const refused = await relay.callError('factories.update', { id: 'default', executor });
      expect(refused.code, JSON.stringify(executor)).toBe('invalid_input');
      expect(refused.path, JSON.stringify(executor)).toBe(path);
    }
    expect(
      (await relay.callError('factories.update', { id: 'nope', executor: { kind: 'record' } }))
        .code,
    ).toBe('not_found');

    // The role check is the transport's: the view token's refusal is read as HTTP.

    const { value: token } = await relay.call('tokens.create', { name: 'ro', role: 'view' });
    expect((await relay.api('GET', '/api/runs', undefined, { token })).status).toBe(200);
    expect(
      (
        await relay.api(
          'PATCH',
          '/api/factories/default',
          { executor: { kind: 'record' } },
          { token },
        )
      ).status,
    ).toBe(403);
  });

  it('fails the queued runs of a deleted automation and keeps its finished runs readable', async () => {
    const out = tempDir('hookport-delete-');
    try {
      const automation = await createAutomation(relay, {
        name: 'doomed',
        triggers: [webhookTrigger([uid])],
      });
      await setExecutor(relay, captureCommand(out, { concurrency: 1 }));
      const [blocking] = await send('{"mode":"hang"}');
      const [waiting] = await send('{"mode":"ok"}');
      await waitForRun(relay, blocking!, ['running']);
      expect((await waitForRun(relay, waiting!, ['queued'])).status).toBe('queued');

      await relay.call('automations.delete', { id: automation.id });
      const cancelled = await waitForRun(relay, waiting!);
      expect(cancelled).toMatchObject({
        status: 'failed',
        automationName: null,
        error: 'the automation was deleted before this run started',
      });
      expect((await relay.callError('runs.rerun', { id: cancelled.id })).code).toBe('conflict');
    } finally {
      await relay.stop();
      rmSync(out, { recursive: true, force: true });
    }
  });
});
