import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { logSettled } from '../../support/deliveries.js';
import { parseMetrics, sampleValue } from '../../support/prometheus.js';
import { startReceiver, type Receiver } from '../../support/receiver.js';
import {
  bearer,
  postDelivery,
  startTestRelay,
  tempDir,
  type CreatedWebhook,
  type TestRelay,
} from '../../support/relay.js';
import { waitFor } from '../../support/wait.js';

const HOUR = 3_600_000;
type Notice = {
  event: string;
  kind: string;
  webhook: { uid: string; name: string };
  since: string;
  message: string;
};

describe('alarms: a quiet webhook and a Rejected (auth) streak', () => {
  let clock: number;
  let dataDir: string;
  let relay: TestRelay;
  let receiver: Receiver;

  const start = () => startTestRelay({ dataDir, now: () => clock });
  const alarms = async () => (await relay.call('alarms.list', {})).items;
  const notices = (uid: string): Notice[] =>
    (receiver.received as Notice[]).filter((n) => n.webhook.uid === uid);
  const send = async (hook: CreatedWebhook, secret: string | null, n: number) =>
    (await postDelivery(hook.ingressUrl, `{"n":${n}}`, bearer(secret))).status;

  beforeEach(async () => {
    clock = Date.parse('2030-03-04T08:00:00Z');
    dataDir = tempDir();
    relay = await start();
    receiver = await startReceiver();
    await relay.call('factories.setAlarmNotification', {
      id: 'default',
      notification: { kind: 'http', url: receiver.url },
    });
  });
  afterEach(async () => {
    await relay.stop();
    await receiver.close();
  });

  it('raises one alarm when a webhook goes quiet past its cadence, and one recovery', async () => {
    const hook = await relay.createWebhook({ name: 'nightly' });
    const uid = hook.webhook.uid;
    const set = await relay.call('webhooks.setAlarms', { uid, expectedEveryMinutes: 360 });
    expect(set).toEqual({ uid, expectedEveryMinutes: 360, authFailureStreak: 5 });
    expect(await send(hook, hook.secret, 1)).toBe(202);

    clock += 5 * HOUR;
    await relay.core.alarms.evaluate();
    expect(await alarms()).toEqual([]);

    clock += 2 * HOUR + 12 * 60_000;
    await relay.core.alarms.evaluate();
    const [quiet] = await alarms();
    expect(quiet).toMatchObject({
      webhookUid: uid,
      webhookName: 'nightly',
      kind: 'quiet',
      since: new Date(Date.parse('2030-03-04T14:00:00Z')).toISOString(),
      message: 'No accepted delivery for 7 h 12 min; expected at least one every 6 h.',
    });
    const metrics = parseMetrics(
      await (
        await fetch(`${relay.adminUrl}/metrics`, {
          headers: { authorization: `Bearer ${relay.adminToken}` },
        })
      ).text(),
    );
    expect(
      sampleValue(metrics, 'hookport_webhook_alarm', { webhook_uid: uid, kind: 'quiet' }),
    ).toBe(1);

    // Still quiet an hour later, checked again and again: no second alarm.
    for (let i = 0; i < 3; i++) {
      clock += 20 * 60_000;
      await relay.core.alarms.evaluate();
    }
    await waitFor(() => notices(uid).length >= 1, 'the alarm notice');
    expect(notices(uid)).toHaveLength(1);

    expect(await send(hook, hook.secret, 2)).toBe(202);
    await waitFor(() => notices(uid).length >= 2, 'the recovery notice');
    await relay.core.alarms.evaluate();
    expect(await alarms()).toEqual([]);
    expect(notices(uid)).toEqual([
      {
        event: 'alarm',
        kind: 'quiet',
        webhook: { uid, name: 'nightly', factory: 'default' },
        since: '2030-03-04T14:00:00.000Z',
        at: '2030-03-04T15:12:00.000Z',
        message: 'No accepted delivery for 7 h 12 min; expected at least one every 6 h.',
      },
      {
        event: 'recovery',
        kind: 'quiet',
        webhook: { uid, name: 'nightly', factory: 'default' },
        since: '2030-03-04T14:00:00.000Z',
        at: '2030-03-04T16:12:00.000Z',
        message: 'Back to normal: an accepted delivery arrived after 8 h 12 min without one.',
      },
    ]);
  });

  it('raises one alarm when the newest deliveries are all Rejected (auth), and one recovery', async () => {
    const hook = await relay.createWebhook({ name: 'rotated' });
    const uid = hook.webhook.uid;
    expect(await send(hook, hook.secret, 0)).toBe(202);
    for (let i = 1; i <= 4; i++) expect(await send(hook, 'old-secret', i)).toBe(401);
    await logSettled(relay);
    expect(await alarms()).toEqual([]);

    expect(await send(hook, 'old-secret', 5)).toBe(401);
    const [auth] = await waitFor(async () => {
      const raised = await alarms();
      return raised.length > 0 ? raised : null;
    }, 'the auth alarm');
    expect(auth).toMatchObject({
      webhookUid: uid,
      kind: 'auth',
      message:
        'The newest 5 deliveries were all Rejected (auth): the sender may be using an old or wrong secret.',
    });
    for (let i = 6; i <= 9; i++) expect(await send(hook, 'old-secret', i)).toBe(401);
    await logSettled(relay);
    expect((await alarms())[0]!.message).toContain('The newest 9 deliveries');

    expect(await send(hook, hook.secret, 10)).toBe(202);
    await waitFor(() => notices(uid).length >= 2, 'the recovery notice');
    expect(await alarms()).toEqual([]);
    expect(notices(uid).map((n) => [n.event, n.kind])).toEqual([
      ['alarm', 'auth'],
      ['recovery', 'auth'],
    ]);
    expect(notices(uid)[1]!.message).toBe(
      'Back to normal: a delivery got past authentication again.',
    );
  });

  it('remembers a raised alarm across a restart: no second alarm, and the recovery still comes', async () => {
    const hook = await relay.createWebhook({ name: 'restarted' });
    const uid = hook.webhook.uid;
    await relay.call('webhooks.setAlarms', { uid, expectedEveryMinutes: 60 });
    clock += 2 * HOUR;
    await relay.core.alarms.evaluate();
    await waitFor(() => notices(uid).length >= 1, 'the alarm notice');

    await relay.stop();
    relay = await start();
    await relay.core.alarms.evaluate();
    expect((await alarms()).map((a) => a.kind)).toEqual(['quiet']);
    // The restarted relay listens on a new port.
    const url = `${relay.ingressUrl}/webhooks/w/${uid}`;
    expect((await postDelivery(url, '{"n":1}', bearer(hook.secret))).status).toBe(202);
    await waitFor(() => notices(uid).length >= 2, 'the recovery notice');
    expect(notices(uid).map((n) => n.event)).toEqual(['alarm', 'recovery']);
  });

  it('runs a command with the notice on stdin and in HOOKPORT_ALARM_* variables', async () => {
    const out = join(tempDir(), 'notices.jsonl');
    const script =
      "let s='';process.stdin.on('data',c=>s+=c).on('end',()=>require('fs').appendFileSync(" +
      'process.argv[1],JSON.stringify({stdin:JSON.parse(s),event:process.env.HOOKPORT_ALARM_EVENT,' +
      "name:process.env.HOOKPORT_ALARM_WEBHOOK_NAME,token:process.env.HOOKPORT_ADMIN_TOKEN??null})+'\\n'))";
    await relay.call('factories.setAlarmNotification', {
      id: 'default',
      notification: { kind: 'command', command: process.execPath, args: ['-e', script, out] },
    });
    const hook = await relay.createWebhook({ name: 'strict' });
    await relay.call('webhooks.setAlarms', { uid: hook.webhook.uid, authFailureStreak: 1 });
    expect(await send(hook, 'wrong', 1)).toBe(401);
    const line = await waitFor(
      () => (existsSync(out) ? readFileSync(out, 'utf8').trim() : null),
      'the command to record the notice',
    );
    expect(JSON.parse(line)).toMatchObject({
      stdin: { event: 'alarm', kind: 'auth', webhook: { name: 'strict' } },
      event: 'alarm',
      name: 'strict',
      token: null,
    });
  });

  it('keeps settings per webhook, checks them, and lets a view token read but not change them', async () => {
    const hook = await relay.createWebhook({ name: 'checked' });
    const uid = hook.webhook.uid;
    const bad = await relay.callError('webhooks.setAlarms', { uid, expectedEveryMinutes: 0 });
    expect(bad).toMatchObject({ code: 'invalid_input', path: 'expectedEveryMinutes' });
    expect(bad.message).toContain('at least 1 minute');
    const off = await relay.call('webhooks.setAlarms', { uid, authFailureStreak: null });
    expect(off).toEqual({ uid, expectedEveryMinutes: null, authFailureStreak: null });
    const badUrl = await relay.callError('factories.setAlarmNotification', {
      id: 'default',
      notification: { kind: 'http', url: 'ftp://example.org' },
    });
    expect(badUrl.code).toBe('invalid_input');
    expect(badUrl.message).toContain('http:// or https://');

    // Which role may call what is the transport's check: read as HTTP.
    const view = await relay.call('tokens.create', { name: 'watcher', role: 'view' });
    const asViewer = { token: view.value };
    expect(
      (await relay.api('GET', `/api/webhooks/${uid}/alarms`, undefined, asViewer)).status,
    ).toBe(200);
    expect(
      (
        await relay.api(
          'PATCH',
          `/api/webhooks/${uid}/alarms`,
          { expectedEveryMinutes: 5 },
          asViewer,
        )
      ).status,
    ).toBe(403);
  });
});
