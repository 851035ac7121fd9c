import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from '../../support/relay.js';
import { FAKE_TUNNEL, standInEnv, tunnelState } from '../../support/tunnels.js';
import { waitFor } from '../../support/wait.js';

/** The tunnel chosen, tested and watched through the management API (the Settings page's calls). */
describe('the tunnel in Settings', { timeout: 90_000 }, () => {
  let relay: TestRelay | null = null;
  let receiver: Server | null = null;
  afterEach(async () => {
    await relay?.stop();
    relay = null;
    receiver?.close();
    receiver = null;
  });

  it('is chosen, kept, tested and turned off through the API', async () => {
    relay = await startTestRelay({ tunnel: { env: standInEnv() } });
    const before = await relay.call('settings.get', {});
    expect(before.tunnel).toBeNull();
    expect((await relay.call('relay.status', {})).tunnel.state).toBe('off');

    const kind = `command:${FAKE_TUNNEL} {port}`;
    const tested = await relay.call('tunnel.test', { kind });
    expect(tested.ok).toBe(true);
    expect(tested.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const saved = await relay.call('settings.update', { tunnel: { kind } });
    expect(saved.tunnel).toEqual({ kind, domain: null });
    const up = await tunnelState(relay.core, (t) => t.state === 'up');
    const settings = await relay.call('settings.get', {});
    expect(settings.effectivePublicUrl).toBe(up.url);

    const off = await relay.call('settings.update', { tunnel: null });
    expect(off.tunnel).toBeNull();
    expect(off.effectivePublicUrl).toBe(relay.ingressUrl);
    expect(relay.core.reachability.tunnel.state).toBe('off');
  });

  it('refuses a kind it does not know, in words', async () => {
    relay = await startTestRelay();
    const refused = await relay.callError('settings.update', { tunnel: { kind: 'wormhole' } });
    expect(refused.code).toBe('invalid_input');
    expect(refused.message).toContain(
      'must be cloudflared, ngrok, tailscale, ssh:<destination> or command:<program and arguments>',
    );
  });

  it('raises an alarm when the tunnel stays down, sent through the alarm notification', async () => {
    const notices: unknown[] = [];
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        notices.push(JSON.parse(body));
        res.end();
      });
    });
    await new Promise<void>((done) => receiver!.listen(0, '127.0.0.1', done));
    const address = receiver.address() as { port: number };
    relay = await startTestRelay({ tunnel: { env: standInEnv(), alarmAfterMs: 200 } });
    await relay.call('factories.setAlarmNotification', {
      id: 'default',
      notification: { kind: 'http', url: `http://127.0.0.1:${address.port}/alarm` },
    });
    await relay.call('settings.update', {
      tunnel: { kind: `command:${FAKE_TUNNEL} {port} --exit-without-url` },
    });
    await waitFor(() => notices.length > 0, 'the tunnel alarm', { timeoutMs: 20_000 });
    expect(notices[0]).toMatchObject({ event: 'alarm', kind: 'tunnel', webhook: null });
    expect((notices[0] as { message: string }).message).toMatch(
      /^The tunnel has been down since \S+Z \(.*fake-tunnel exited with code 3.*\): senders on the internet cannot reach this relay\.$/,
    );
    expect(relay.logs.some((l) => l.startsWith('[alarms] The tunnel has been down'))).toBe(true);
  });
});
