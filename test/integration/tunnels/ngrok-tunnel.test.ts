import { afterEach, describe, expect, it } from 'vitest';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';
import { tunnelState } from '../../support/tunnels.js';

/**
 * `--tunnel ngrok` through the real @ngrok/ngrok library, with no network: the authtoken
 * checks happen before any connection, and the relay runs on without the tunnel.
 */
describe('an ngrok tunnel without network', () => {
  let relay: TestRelay | null = null;
  afterEach(async () => {
    await relay?.stop();
    relay = null;
  });

  it('without an authtoken says how to give one, and the relay runs on', async () => {
    relay = await startTestRelay({
      tunnel: { choice: { kind: 'ngrok', domain: null }, env: { PATH: process.env.PATH } },
    });
    const down = await tunnelState(relay.core, (t) => t.state === 'down');
    expect(down.lastError).toBe(
      'ngrok needs an authtoken: create the team secret ngrok-authtoken (or set NGROK_AUTHTOKEN) with the authtoken from https://dashboard.ngrok.com/get-started/your-authtoken',
    );
    const created = await relay.createWebhook({ name: 'orders' });
    const answer = await postDelivery(created.webhook.ingressUrl, '{}', {
      'content-type': 'application/json',
      ...bearer(created.secret),
    });
    expect(answer.status).toBe(202);
  });

  it('reads the team secret ngrok-authtoken and refuses a token ngrok would refuse', async () => {
    relay = await startTestRelay();
    await relay.call('secrets.create', {
      name: 'ngrok-authtoken',
      value: 'not a token: pasted with spaces',
    });
    const tested = await relay.call('tunnel.test', { kind: 'ngrok' });
    expect(tested).toEqual({
      ok: false,
      url: null,
      error:
        'ngrok would refuse this authtoken (ERR_NGROK_105: it has characters no authtoken has): copy it again from https://dashboard.ngrok.com/get-started/your-authtoken and rotate the team secret ngrok-authtoken',
    });
  });
});
