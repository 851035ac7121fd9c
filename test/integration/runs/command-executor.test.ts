import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createAutomation,
  getRun,
  setExecutor,
  waitForRun,
  webhookTrigger,
} from '../../support/automations.js';
import { getDelivery } from '../../support/deliveries.js';
import {
  bearer,
  postDelivery,
  startTestRelay,
  tempDir,
  type TestRelay,
} from '../../support/relay.js';
import { waitFor } from '../../support/wait.js';
import { captureCommand } from './capture-command.js';
import { storeConfig, storeKinds } from '../../support/stores.js';

interface Recorded {
  cwd: string;
  env: Record<string, string>;
}

describe.each(storeKinds)('the command executor (%s)', (storeKind) => {
  // One relay per store; each test gets its own webhook, automation and output folder, and sets
  // the executor it needs, so it reads what it would read on a fresh relay.
  let relay: TestRelay;
  let out: string;
  let uid: string;
  let automationId: string;
  let send: (body: string | Buffer) => Promise<string>;
  beforeAll(async () => {
    relay = await startTestRelay(storeConfig(storeKind));
  });
  afterAll(() => relay.stop());
  beforeEach(async () => {
    out = tempDir('hookport-runs-out-');
    const created = await relay.createWebhook({ name: 'github-prod' });
    uid = created.webhook.uid;
    automationId = (
      await createAutomation(relay, {
        name: 'capture',
        prompt: 'Capture what you were given.',
        triggers: [webhookTrigger([uid])],
      })
    ).id;
    send = async (body) => {
      const sent = await postDelivery(created.ingressUrl, body, bearer(created.secret));
      expect(sent.status).toBe(202);
      const [runId] = (await getDelivery(relay, sent.body.delivery_id!)).runIds;
      return runId!;
    };
  });
  afterEach(async () => {
    writeFileSync(join(out, 'release'), ''); // lets any blocked fixture exit
    await relay.call('automations.delete', { id: automationId });
    await relay.call('webhooks.delete', { uid });
    rmSync(out, { recursive: true, force: true });
  });

  it('runs the command in a fresh run folder with PROMPT.md, the exact payload bytes and the run’s IDs', async () => {
    process.env.HOOKPORT_ADMIN_TOKEN = relay.adminToken;
    process.env.HOOKPORT_MASTER_KEY = 'not-for-runs';
    // As the `hookport` launcher sets it for the relay: a run's program keeps malloc's defaults.
    process.env.MALLOC_ARENA_MAX = '2';
    try {
      await setExecutor(relay, captureCommand(out));
      // A BOM, odd spacing and non-ASCII text: the file must hold these bytes, not a re-serialization.
      const raw = Buffer.from('\uFEFF{ "note" :  "caf\u00e9 \u2603",\n\t"n": 1.50 }', 'utf8');
      const runId = await send(raw);
      const run = await waitForRun(relay, runId);
      expect(run).toMatchObject({ status: 'succeeded', exitCode: 0, error: null });
      expect(run.output).toBe(`hello from ${runId}\na warning on stderr\n`);

      const copied = join(out, runId);
      expect(readFileSync(join(copied, 'event-payload.json')).equals(raw)).toBe(true);
      const prompt = readFileSync(join(copied, 'PROMPT.md'), 'utf8');
      expect(prompt).toBe(run.input);
      expect(prompt.startsWith('Capture what you were given.\n')).toBe(true);
      expect(prompt).toContain(`- Webhook: github-prod (${uid})`);
      expect(prompt).toContain(`- Delivery ID: ${run.deliveryId}`);

      const recorded = JSON.parse(readFileSync(join(copied, 'run.json'), 'utf8')) as Recorded;
      expect(recorded.cwd).toBe(join(relay.dataDir, 'runs', runId));
      expect(recorded.env).toMatchObject({
        HOOKPORT_RUN_ID: runId,
        HOOKPORT_DELIVERY_ID: run.deliveryId,
        HOOKPORT_WEBHOOK_UID: uid,
      });
      // The admin token and the master key never reach a run.
      expect(
        Object.keys(recorded.env)
          .filter((k) => k.startsWith('HOOKPORT_'))
          .sort(),
      ).toEqual([
        'HOOKPORT_AUTOMATION_ID',
        'HOOKPORT_DELIVERY_ID',
        'HOOKPORT_EVENT_TYPE',
        'HOOKPORT_RUN_DIR',
        'HOOKPORT_RUN_ID',
        'HOOKPORT_WEBHOOK_UID',
      ]);
      expect(readFileSync(join(copied, 'run.json'), 'utf8')).not.toContain(relay.adminToken);
      expect(recorded.env).not.toHaveProperty('MALLOC_ARENA_MAX');
      expect(recorded.env).toHaveProperty('PATH');
    } finally {
      delete process.env.HOOKPORT_ADMIN_TOKEN;
      delete process.env.HOOKPORT_MASTER_KEY;
      delete process.env.MALLOC_ARENA_MAX;
    }
  });

  it('names the delivery’s event type in PROMPT.md and HOOKPORT_EVENT_TYPE', async () => {
    const patched = await relay.call('webhooks.update', {
      uid,
      eventTypePath: 'header:X-Event-Name',
    });
    expect(patched).toMatchObject({ eventTypePath: 'header:X-Event-Name' });
    await setExecutor(relay, captureCommand(out));
    const webhook = await relay.call('webhooks.get', { uid });
    const { secret } = await relay.call('webhooks.rotate', { uid });
    const sent = await postDelivery(webhook.ingressUrl, '{"job":7}', {
      ...bearer(secret),
      'X-Event-Name': 'nightly.finished',
    });
    const [runId] = (await getDelivery(relay, sent.body.delivery_id!)).runIds;
    const run = await waitForRun(relay, runId!);
    expect(run.status).toBe('succeeded');
    expect(run.input).toContain('- Event type: "nightly.finished" (as the sender named it)');
    const recorded = JSON.parse(readFileSync(join(out, runId!, 'run.json'), 'utf8')) as Recorded;
    expect(recorded.env.HOOKPORT_EVENT_TYPE).toBe('nightly.finished');
  });

  it('marks a non-zero exit failed, with the exit code and the captured output', async () => {
    await setExecutor(relay, captureCommand(out));
    const run = await waitForRun(relay, await send('{"mode":"exit","code":3}'));
    expect(run).toMatchObject({ status: 'failed', exitCode: 3, error: 'exited with code 3' });
    expect(run.output).toBe('failing with 3\n');
  });

  it('stops a command that runs past its timeout and says so', async () => {
    await setExecutor(relay, captureCommand(out, { timeoutSeconds: 1 }));
    const run = await waitForRun(relay, await send('{"mode":"hang"}'));
    expect(run).toMatchObject({
      status: 'failed',
      error: 'timed out after 1 s; the command was stopped',
    });
  });

  it('keeps no more than the configured number of runs executing at once', async () => {
    await setExecutor(relay, captureCommand(out, { concurrency: 2 }));
    const ids = [
      await send('{"mode":"block","n":1}'),
      await send('{"mode":"block","n":2}'),
      await send('{"mode":"block","n":3}'),
    ];
    await waitFor(
      async () => {
        const runs = await Promise.all(ids.map((id) => getRun(relay, id)));
        return runs.filter((r) => r.status === 'running').length === 2 &&
          ids.slice(0, 2).every((id) => existsSync(join(out, id, 'pid')))
          ? runs
          : null;
      },
      'two runs executing',
      { timeoutMs: 15_000 },
    );
    expect((await getRun(relay, ids[2]!)).status).toBe('queued');
    expect(readFileSync(join(out, 'started.log'), 'utf8').trim().split('\n')).toHaveLength(2);

    writeFileSync(join(out, 'release'), '');
    for (const id of ids) expect((await waitForRun(relay, id)).status).toBe('succeeded');
    const seen = ids.map((id) => Number(readFileSync(join(out, id, 'active-seen'), 'utf8')));
    expect(Math.max(...seen)).toBe(2);
    expect(readFileSync(join(out, 'started.log'), 'utf8').trim().split('\n').sort()).toEqual(
      [...ids].sort(),
    );
  });

  it('keeps the beginning and the end of a large output, within a bound', async () => {
    await setExecutor(relay, captureCommand(out));
    const run = await waitForRun(relay, await send('{"mode":"flood","bytes":1000000}'));
    expect(run.status).toBe('succeeded');
    expect(run.output!.length).toBeLessThan(70_000);
    expect(run.output).toMatch(/^x+\n\[… \d+ bytes of output not kept …\]\nx+END\n$/);
  });

  it('fails a run whose program cannot be started, naming it', async () => {
    await setExecutor(relay, { kind: 'command', command: '/nonexistent/hookport-agent' });
    const run = await waitForRun(relay, await send('{}'));
    expect(run).toMatchObject({
      status: 'failed',
      error: 'could not start "/nonexistent/hookport-agent": ENOENT',
    });
  });

  it('runs in a configured working directory, and says so when it is missing', async () => {
    await setExecutor(relay, captureCommand(out, { cwd: out }));
    const runId = await send('{"where":"configured"}');
    expect((await waitForRun(relay, runId)).status).toBe('succeeded');
    const recorded = JSON.parse(readFileSync(join(out, runId, 'run.json'), 'utf8')) as Recorded;
    expect(recorded.cwd).toBe(out);
    // The run folder still holds the input, and HOOKPORT_RUN_DIR says where it is.
    expect(recorded.env.HOOKPORT_RUN_DIR).toBe(join(relay.dataDir, 'runs', runId));

    await setExecutor(relay, captureCommand(out, { cwd: join(out, 'missing') }));
    const failedRun = await waitForRun(relay, await send('{"where":"missing"}'));
    expect(failedRun).toMatchObject({
      status: 'failed',
      error: `the working directory "${join(out, 'missing')}" does not exist`,
    });
  });
});
