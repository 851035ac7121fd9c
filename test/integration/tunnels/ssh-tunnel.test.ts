import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';
import { freePort, startLoopbackSshd, type LoopbackSshd } from '../../support/sshd.js';
import { recordedGroup, tunnelState } from '../../support/tunnels.js';

/**
 * A real tunnel end to end on loopback: Debian's OpenSSH server, started here with a throwaway
 * key, and `--tunnel 'ssh:…'` forwarding one of its ports to the ingress (`ssh -R`); the URL
 * of the user's own server is `--public-url`.
 */
describe('an ssh -R tunnel to a real sshd', { timeout: 120_000 }, () => {
  let sshd: LoopbackSshd;
  let relay: TestRelay;
  let forwarded: string;
  let kind: string;

  beforeAll(async () => {
    sshd = await startLoopbackSshd();
    const remotePort = await freePort();
    forwarded = `http://127.0.0.1:${remotePort}`;
    kind = `ssh:${sshd.sshArgs} -R ${remotePort}:127.0.0.1:{port} ${sshd.user}@127.0.0.1`;
    relay = await startTestRelay({
      publicUrl: forwarded,
      tunnel: { choice: { kind, domain: null } },
    });
  });
  afterAll(async () => {
    await relay?.stop();
    await sshd?.stop();
  });

  it('carries deliveries through the forwarded port, and is restarted when ssh dies', async () => {
    const up = await tunnelState(relay.core, (t) => t.state === 'up', 60_000);
    expect(up.url).toBe(forwarded);
    const created = await relay.createWebhook({ name: 'through-ssh' });
    expect(created.webhook.ingressUrl).toBe(`${forwarded}/webhooks/w/${created.webhook.uid}`);
    const first = await postDelivery(created.webhook.ingressUrl, '{"via":"ssh"}', {
      'content-type': 'application/json',
      ...bearer(created.secret),
    });
    expect(first.status).toBe(202);

    // Only the ingress is forwarded: the admin API is not there.
    const admin = await fetch(`${forwarded}/api/status`, {
      headers: { authorization: `Bearer ${relay.adminToken}` },
    });
    expect(admin.status).toBe(404);

    process.kill(-recordedGroup(relay.dataDir), 'SIGKILL');
    const down = await tunnelState(relay.core, (t) => t.state === 'down');
    expect(down.lastError).toMatch(/^ssh was ended by SIGKILL/);
    await tunnelState(relay.core, (t) => t.state === 'up', 60_000);
    const second = await postDelivery(created.webhook.ingressUrl, '{"via":"ssh again"}', {
      'content-type': 'application/json',
      ...bearer(created.secret),
    });
    expect(second.status).toBe(202);
    const stored = await relay.call('deliveries.list', { uid: created.webhook.uid });
    expect(stored.items.map((d) => d.id)).toEqual([
      second.body.delivery_id,
      first.body.delivery_id,
    ]);
  });

  it('says so when another tunnel already holds the remote port', async () => {
    await tunnelState(relay.core, (t) => t.state === 'up', 60_000);
    const other = await startTestRelay({ publicUrl: forwarded });
    try {
      const tested = await other.call('tunnel.test', { kind });
      expect(tested.ok).toBe(false);
      expect(tested.error).toBe(
        'ssh: the remote port is already forwarded (another tunnel, or a left-over ssh, holds it): stop it or forward another port',
      );
    } finally {
      await other.stop();
    }
  });
});
