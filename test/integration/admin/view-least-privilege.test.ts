import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startReceiver } from '../../support/receiver.js';
import {
  bearer,
  postDelivery,
  startTestRelay,
  tempDir,
  type TestRelay,
} from '../../support/relay.js';
import { storeConfig, storeKinds } from '../../support/stores.js';

type Secrets = { items: Array<{ name: string; fingerprint: string | null }> };

const SLACK_URL = 'https://hooks.slack.com/services/T0000/B0000/XXXXXXXXXXXXXXXXXXXXXXXX';
const EXECUTOR_URL = 'https://agents.example.com:8443/run?token=s3cr3t-token';

/**
 * Issue 24, item 3: a `view` token (a dashboard's, a scrape's) never reads what may carry a
 * credential: the alarm notifier URL, the http executor's URL and a command's arguments come back
 * as scheme, host and a marker; team secrets come without a fingerprint. `manage` reads them all.
 */
describe.each(storeKinds)('what a view token reads of credentials (%s)', (storeKind) => {
  const relays: TestRelay[] = [];
  afterEach(async () => {
    for (const relay of relays.splice(0)) await relay.stop();
  });

  async function relayWithViewer(dataDir = tempDir()) {
    const relay = await startTestRelay({ ...storeConfig(storeKind), dataDir });
    relays.push(relay);
    const minted = await relay.api<{ value: string }>('POST', '/api/tokens', {
      name: 'scrape',
      role: 'view',
    });
    const asViewer = <T>(path: string) =>
      relay.api<T>('GET', path, undefined, { token: minted.body.value });
    return { relay, asViewer };
  }

  it('the http executor URL and the alarm notifier URL: scheme and host only for view, whole for manage', async () => {
    const { relay, asViewer } = await relayWithViewer();
    await relay.api('PATCH', '/api/factories/default', {
      executor: { kind: 'http', url: EXECUTOR_URL },
    });
    await relay.api('PATCH', '/api/factories/default/alarm-notification', {
      notification: { kind: 'http', url: SLACK_URL },
    });

    const executor = await asViewer<{ executor: { url: string } }>(
      '/api/factories/default/executor',
    );
    expect(executor.status).toBe(200);
    expect(executor.body.executor).toMatchObject({
      kind: 'http',
      url: 'https://agents.example.com:8443/…[redacted]',
    });
    const notifier = await asViewer<{ notification: { url: string } }>(
      '/api/factories/default/alarm-notification',
    );
    expect(notifier.body.notification).toMatchObject({
      kind: 'http',
      url: 'https://hooks.slack.com/…[redacted]',
    });
    expect(JSON.stringify([executor.body, notifier.body])).not.toMatch(/s3cr3t|XXXX|T0000/);

    expect(
      (await relay.api<{ executor: unknown }>('GET', '/api/factories/default/executor')).body
        .executor,
    ).toMatchObject({ url: EXECUTOR_URL });
    expect(
      (await relay.api('GET', '/api/factories/default/alarm-notification')).body.notification,
    ).toMatchObject({ url: SLACK_URL });
  });

  it("a command's arguments: each hidden for view (the program and how many stay), whole for manage", async () => {
    const { relay, asViewer } = await relayWithViewer();
    const args = ['--token', 'ghp_0123456789abcdef', 'https://user:pw@example.com/'];
    await relay.api('PATCH', '/api/factories/default', {
      executor: { kind: 'command', command: '/usr/bin/agent', args },
    });
    await relay.api('PATCH', '/api/factories/default/alarm-notification', {
      notification: { kind: 'command', command: '/usr/bin/notify', args: ['--key=k-123'] },
    });
    expect(
      (await asViewer<{ executor: unknown }>('/api/factories/default/executor')).body.executor,
    ).toMatchObject({
      kind: 'command',
      command: '/usr/bin/agent',
      args: ['[redacted]', '[redacted]', '[redacted]'],
    });
    expect(
      (await asViewer<{ notification: unknown }>('/api/factories/default/alarm-notification')).body
        .notification,
    ).toMatchObject({ command: '/usr/bin/notify', args: ['[redacted]'] });
    expect(
      (await relay.api<{ executor: unknown }>('GET', '/api/factories/default/executor')).body
        .executor,
    ).toMatchObject({ args });
  });

  it("a forward attempt's URL: scheme and host only for view, whole for manage", async () => {
    const { relay, asViewer } = await relayWithViewer();
    const handler = await startReceiver();
    try {
      const created = await relay.createWebhook({ name: 'forwarded' });
      const sent = await postDelivery(created.ingressUrl, '{"n":1}', bearer(created.secret));
      const id = sent.body.delivery_id!;
      const target = `${new URL(handler.url).origin}/hooks/k-9f8e7d?token=fwd-s3cr3t`;
      const forwarded = await relay.call('deliveries.forward', { id, url: target });
      expect(forwarded.attempt.status).toBe(204);

      const seen = await asViewer<{ items: Array<{ url: string; status: number }> }>(
        `/api/deliveries/${id}/attempts`,
      );
      expect(seen.status).toBe(200);
      expect(seen.body.items).toMatchObject([
        { url: `${new URL(handler.url).origin}/…[redacted]`, status: 204 },
      ]);
      expect(JSON.stringify(seen.body)).not.toMatch(/fwd-s3cr3t|k-9f8e7d/);
      expect((await relay.call('deliveries.attempts', { id })).items).toMatchObject([
        { url: target },
      ]);
    } finally {
      await handler.close();
    }
  });

  it('team secrets: no fingerprint for view; an HMAC fingerprint for manage, the same after a restart', async () => {
    const dataDir = tempDir();
    const first = await relayWithViewer(dataDir);
    const created = await first.relay.api<{ secret: { fingerprint: string }; value: string }>(
      'POST',
      '/api/secrets',
      { name: 'deploy-hook', value: 'correct horse battery staple' },
    );
    const fingerprint = created.body.secret.fingerprint;
    expect(fingerprint).toMatch(/^[0-9a-f]{8}$/);
    // Not the bare SHA-256 prefix a chosen value could be looked up by.
    const sha256Prefix = createHash('sha256')
      .update('correct horse battery staple')
      .digest('hex')
      .slice(0, 8);
    expect(fingerprint).not.toBe(sha256Prefix);

    const viewed = await first.asViewer<Secrets>('/api/secrets');
    expect(viewed.status).toBe(200);
    expect(viewed.body.items).toEqual([
      expect.objectContaining({ name: 'deploy-hook', fingerprint: null }),
    ]);
    expect((await first.relay.api<Secrets>('GET', '/api/secrets')).body.items[0]).toMatchObject({
      fingerprint,
    });

    // A database from before fingerprints were HMACs: the old prefix is made again at start.
    await first.relay.core.store.secrets.setFingerprint('default', 'deploy-hook', sha256Prefix);
    await first.relay.stop();
    relays.splice(0);
    const again = await startTestRelay({ ...storeConfig(storeKind), dataDir });
    relays.push(again);
    expect((await again.api<Secrets>('GET', '/api/secrets')).body.items[0]).toMatchObject({
      name: 'deploy-hook',
      fingerprint,
    });
  });
});
