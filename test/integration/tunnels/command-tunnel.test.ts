import { afterEach, describe, expect, it } from 'vitest';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';
import {
  FAKE_TUNNEL,
  alive,
  recordedGroup,
  recordedGroups,
  standInEnv,
  tunnelState,
} from '../../support/tunnels.js';
import { waitFor } from '../../support/wait.js';

/**
 * `--tunnel command:…` with a stand-in tunnel program (test/support/tunnel-standins/fake-tunnel)
 * that prints the URL of a real loopback proxy to the ingress, as a tunnel's edge would.
 */
describe('a command tunnel', { timeout: 90_000 }, () => {
  let relay: TestRelay | null = null;
  afterEach(async () => {
    await relay?.stop();
    relay = null;
  });

  it('becomes the base of every ingress URL, carries deliveries, and comes back with a new URL after it dies', async () => {
    relay = await startTestRelay({
      tunnel: {
        choice: { kind: `command:${FAKE_TUNNEL} {port}`, domain: null },
        env: standInEnv(),
      },
    });
    const up = await tunnelState(relay.core, (t) => t.state === 'up');
    expect(up.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(up.kind).toBe(`command:${FAKE_TUNNEL} {port}`);

    const status = await relay.call('relay.status', {});
    expect(status.tunnel.url).toBe(up.url);
    expect(status.ingressBaseUrl).toBe(up.url);
    const created = await relay.createWebhook({ name: 'orders' });
    expect(created.webhook.ingressUrl.startsWith(`${up.url}/webhooks/w/`)).toBe(true);

    const through = await postDelivery(created.webhook.ingressUrl, '{"n":1}', {
      'content-type': 'application/json',
      ...bearer(created.secret),
    });
    expect(through.status).toBe(202);
    // /metrics is Prometheus text on the admin listener, not a management call.
    const metrics = await relay.api<string>('GET', '/metrics');
    expect(metrics.body).toMatch(/^hookport_tunnel_up 1$/m);

    // The admin listener is never behind the tunnel: its routes answer as the ingress would.
    for (const path of ['/api/status', '/api/settings', '/metrics', '/login', '/']) {
      const answer = await fetch(`${up.url}${path}`, {
        headers: { authorization: `Bearer ${relay.adminToken}` },
      });
      expect(answer.status, path).toBe(404);
    }

    // Killed: down in words, restarted after the backoff, with the new URL everywhere.
    const group = recordedGroup(relay.dataDir);
    process.kill(-group, 'SIGKILL');
    const down = await tunnelState(relay.core, (t) => t.state === 'down');
    expect(down.lastError).toMatch(/fake-tunnel was ended by SIGKILL/);
    const again = await tunnelState(relay.core, (t) => t.state === 'up');
    expect(again.url).not.toBe(up.url);
    const moved = await relay.call('webhooks.list', {});
    expect(moved.items[0]?.ingressUrl.startsWith(`${again.url}/webhooks/w/`)).toBe(true);
    const second = await postDelivery(moved.items[0]!.ingressUrl, '{"n":2}', {
      'content-type': 'application/json',
      ...bearer(created.secret),
    });
    expect(second.status).toBe(202);
    const deliveries = await relay.call('deliveries.list', { uid: created.webhook.uid });
    expect(deliveries.items).toHaveLength(2);

    // Stopping the relay stops the program and forgets it.
    const last = recordedGroup(relay.dataDir);
    await relay.stop();
    relay = null;
    await waitFor(() => !alive(last), 'the tunnel program to end with the relay');
  });

  it('says in words when the program is missing, and the relay runs on', async () => {
    relay = await startTestRelay({
      tunnel: { choice: { kind: 'command:no-such-tunnel-program {port}', domain: null } },
    });
    const down = await tunnelState(relay.core, (t) => t.state === 'down');
    expect(down.lastError).toBe(
      'no-such-tunnel-program was not found: install it or give its full path in the command',
    );
    expect(relay.logs.join('\n')).toContain('The relay runs on without a tunnel.');
    const created = await relay.createWebhook({ name: 'orders' });
    expect(created.webhook.ingressUrl.startsWith(relay.ingressUrl)).toBe(true);
    const direct = await postDelivery(created.webhook.ingressUrl, '{}', {
      'content-type': 'application/json',
      ...bearer(created.secret),
    });
    expect(direct.status).toBe(202);
    expect(recordedGroups(relay.dataDir)).toEqual([]);
  });

  it('explains a program that exits without a URL', async () => {
    relay = await startTestRelay({
      tunnel: {
        choice: { kind: `command:${FAKE_TUNNEL} {port} --exit-without-url`, domain: null },
        env: standInEnv(),
      },
    });
    const down = await tunnelState(relay.core, (t) => t.state === 'down');
    expect(down.lastError).toMatch(/fake-tunnel exited with code 3: fake-tunnel 1\.0/);
    expect(relay.logs.join('\n')).toMatch(
      /The relay runs on without a tunnel; trying again in 1 s\./,
    );
    expect(down.url).toBeNull();
  });
});
