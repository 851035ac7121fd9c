import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestRelay, tempDir, type TestRelay } from '../../support/relay.js';
import { recordedGroup, standInEnv, tunnelState } from '../../support/tunnels.js';
import { waitFor } from '../../support/wait.js';

/**
 * `--tunnel cloudflared` against the stand-in cloudflared (test/support/tunnel-standins/cloudflared,
 * which serves /quicktunnel and /ready as cloudflared's metrics package does). Its log names
 * another host than /quicktunnel does: the URL shown must be the metrics server's.
 */
describe('a cloudflared quick tunnel', { timeout: 90_000 }, () => {
  let relay: TestRelay | null = null;
  afterEach(async () => {
    await relay?.stop();
    relay = null;
  });

  const hostnames = (file: string): string[] =>
    readFileSync(file, 'utf8').trim().split('\n').filter(Boolean);

  it('takes its URL from the metrics server, and shows the new one after a restart', async () => {
    const started = join(tempDir('hookport-cloudflared-'), 'hostnames');
    relay = await startTestRelay({
      tunnel: {
        choice: { kind: 'cloudflared', domain: null },
        env: standInEnv({ STANDIN_CLOUDFLARED_LOG: started }),
      },
    });
    const up = await tunnelState(relay.core, (t) => t.state === 'up');
    expect(up.url).toBe(`https://${hostnames(started)[0]}`);
    expect(up.url).not.toContain('the-log-line-is-not-the-source');
    const created = await relay.createWebhook({ name: 'orders' });
    expect(created.webhook.ingressUrl).toBe(`${up.url}/webhooks/w/${created.webhook.uid}`);

    process.kill(-recordedGroup(relay.dataDir), 'SIGKILL');
    const again = await tunnelState(relay.core, (t) => t.state === 'up' && t.url !== up.url);
    expect(again.url).toBe(`https://${hostnames(started)[1]}`);
    const status = await relay.call('relay.status', {});
    expect(status.ingressBaseUrl).toBe(again.url);
    const got = await relay.call('webhooks.get', { uid: created.webhook.uid });
    expect(got.ingressUrl.startsWith(`${again.url}/`)).toBe(true);
  });

  it('says what "failed to request quick Tunnel" means, and tries again', async () => {
    relay = await startTestRelay({
      tunnel: {
        choice: { kind: 'cloudflared', domain: null },
        env: standInEnv({ STANDIN_CLOUDFLARED_FAIL: '1' }),
      },
    });
    const down = await tunnelState(relay.core, (t) => t.state === 'down');
    expect(down.lastError).toBe(
      'cloudflared could not get a quick tunnel from trycloudflare.com ("failed to request quick Tunnel"): check the internet connection; Cloudflare also limits how many quick tunnels one address may open, so wait a minute',
    );
    await waitFor(
      () => relay!.logs.some((l) => l.includes('trying again in 1 s')),
      'the retry to be announced',
    );
  });

  it('says how to install cloudflared when it is missing, once', async () => {
    relay = await startTestRelay({
      tunnel: { choice: { kind: 'cloudflared', domain: null }, env: { PATH: '/nonexistent' } },
    });
    const down = await tunnelState(relay.core, (t) => t.state === 'down');
    expect(down.lastError).toMatch(
      /^cloudflared is not installed: .*https:\/\/developers\.cloudflare\.com\/cloudflare-one\/connections\/connect-networks\/downloads\//,
    );
    expect(relay.logs.filter((l) => l.startsWith('[tunnel]'))).toEqual([
      `[tunnel] ${down.lastError}. The relay runs on without a tunnel.`,
    ]);
  });
});
