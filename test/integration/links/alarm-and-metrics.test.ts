import { afterEach, describe, expect, it } from 'vitest';
import { GitHubStandin } from '../../support/providers/github-standin.js';
import { goPublic, linkedRelay, linkGitHub, storeToken } from '../../support/links.js';
import { parseMetrics, sampleValue } from '../../support/prometheus.js';
import { startReceiver, type Receiver } from '../../support/receiver.js';
import type { TestRelay } from '../../support/relay.js';
import { waitFor } from '../../support/wait.js';

const TOKEN = 'ghp_standin_token_alarm_metrics';
const HOOK_SECRET = 'hook-secret-alarm-and-metrics-0123';

type Notice = { event: string; kind: string; webhook: { uid: string }; message: string };

describe('a link whose check fails: the alarm monitor and /metrics', () => {
  let github: GitHubStandin;
  let relay: TestRelay;
  let receiver: Receiver;
  afterEach(async () => {
    await relay.stop();
    await github.stop();
    await receiver.close();
  });

  it('raises one alarm while the check fails, ends it when a check passes, and counts recoveries', async () => {
    github = await new GitHubStandin(TOKEN).start();
    receiver = await startReceiver();
    relay = await linkedRelay();
    await relay.call('factories.setAlarmNotification', {
      id: 'default',
      notification: { kind: 'http', url: receiver.url },
    });
    await goPublic(relay);
    await storeToken(relay, 'github-token', TOKEN);
    const { webhook } = await relay.createWebhook({
      name: 'gh',
      authMode: 'signature',
      signatureScheme: 'github',
      secret: HOOK_SECRET,
    });
    const hook = github.addHook('acme/api', 'https://old.example.test/hook', HOOK_SECRET, {
      config: {
        url: 'https://old.example.test/hook',
        content_type: 'form',
        insecure_ssl: '0',
        secret: HOOK_SECRET,
      },
    });
    // Recorded failed before the link: one delivery to recover.
    await github.send(hook, 'push', { n: 1 });
    await linkGitHub(relay, webhook.uid, github, hook);
    await relay.core.alarms.idle();
    const alarms = async () => (await relay.call('alarms.list', {})).items;
    const [alarm] = await alarms();
    expect(alarm).toMatchObject({ webhookUid: webhook.uid, kind: 'link' });
    expect(alarm!.message).toContain("The GitHub link's check found a problem:");
    expect(alarm!.message).toContain('set its content type to application/json');
    const metrics = async () => parseMetrics((await relay.api<string>('GET', '/metrics')).body);
    expect(sampleValue(await metrics(), 'hookport_link_check_ok', { webhook: webhook.uid })).toBe(
      0,
    );

    // Checked again, still failing: no second alarm.
    await relay.call('links.check', { uid: webhook.uid });
    hook.config.content_type = 'json';
    await relay.call('links.check', { uid: webhook.uid });
    await relay.core.alarms.idle();
    expect(await alarms()).toEqual([]);
    expect(sampleValue(await metrics(), 'hookport_link_check_ok', { webhook: webhook.uid })).toBe(
      1,
    );
    await waitFor(() => receiver.received.length >= 2, 'the alarm and its recovery notices');
    expect((receiver.received as Notice[]).map((n) => [n.event, n.kind, n.webhook.uid])).toEqual([
      ['alarm', 'link', webhook.uid],
      ['recovery', 'link', webhook.uid],
    ]);

    await relay.call('links.recover', { uid: webhook.uid });
    await github.server.idle();
    expect(sampleValue(await metrics(), 'hookport_recovered_total', { provider: 'github' })).toBe(
      1,
    );
  });
});
