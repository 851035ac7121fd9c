import { afterEach, describe, expect, it } from 'vitest';
import { openEventStream } from '../../support/event-stream.js';
import {
  bearer,
  postDelivery,
  startTestRelay,
  tempDir,
  type TestRelay,
} from '../../support/relay.js';
import { waitFor } from '../../support/wait.js';

async function sessionCookie(relay: TestRelay, token: string): Promise<string> {
  const response = await fetch(`${relay.adminUrl}/login?token=${token}`, { redirect: 'manual' });
  const cookie = /hookport_session=[^;]+/.exec(response.headers.get('set-cookie') ?? '');
  expect(cookie, `login with ${token.slice(0, 4)}… set no cookie`).not.toBeNull();
  return cookie![0];
}

const statusWith = async (relay: TestRelay, cookie: string): Promise<number> =>
  (await fetch(`${relay.adminUrl}/api/webhooks`, { headers: { cookie } })).status;

describe('how long a way in stays open', () => {
  const running: TestRelay[] = [];
  const start = async (...args: Parameters<typeof startTestRelay>): Promise<TestRelay> => {
    const relay = await startTestRelay(...args);
    running.push(relay);
    return relay;
  };
  afterEach(async () => {
    for (const relay of running.splice(0)) await relay.stop();
  });

  it('a session opened with the admin token survives a restart, and ends when that token is replaced', async () => {
    const dataDir = tempDir();
    const first = await start({ dataDir });
    const cookie = await sessionCookie(first, first.adminToken);
    await first.stop();
    running.pop();

    const again = await start({ dataDir });
    expect(await statusWith(again, cookie)).toBe(200);
    await again.stop();
    running.pop();

    const replaced = await start({
      dataDir,
      adminTokenFromEnv: 'hpa_a-new-admin-token-for-this-test',
    });
    expect(await statusWith(replaced, cookie)).toBe(401);
    const fresh = await sessionCookie(replaced, 'hpa_a-new-admin-token-for-this-test');
    expect(await statusWith(replaced, fresh)).toBe(200);
  });

  it('an open event stream ends at the next event once its token is revoked, and sends nothing more', async () => {
    const relay = await start();
    const minted = await relay.api<{ token: { id: string }; value: string }>(
      'POST',
      '/api/tokens',
      {
        name: 'dashboard',
        role: 'view',
      },
    );
    const stream = await openEventStream(relay, { authorization: `Bearer ${minted.body.value}` });
    const kept = await openEventStream(relay);
    const { ingressUrl, secret } = await relay.createWebhook({ name: 'watched' });
    await waitFor(() => stream.events().length > 0, 'the webhook event on the minted token stream');

    expect((await relay.api('DELETE', `/api/tokens/${minted.body.token.id}`)).status).toBe(200);
    const seen = stream.events().length;
    expect((await postDelivery(ingressUrl, '{"after":"revoke"}', bearer(secret))).status).toBe(202);

    await waitFor(() => stream.ended(), 'the revoked token stream to end');
    await waitFor(
      () => kept.raw().includes('"type":"delivery"'),
      'the delivery on the admin stream',
    );
    expect(stream.events()).toHaveLength(seen);
    expect(kept.ended()).toBe(false);
    stream.close();
    kept.close();
  });

  it('an open event stream ends once its browser session is signed out', async () => {
    const relay = await start();
    const cookie = await sessionCookie(relay, relay.adminToken);
    const stream = await openEventStream(relay, { cookie });
    const signOut = await fetch(`${relay.adminUrl}/api/session`, {
      method: 'DELETE',
      headers: { cookie, origin: relay.adminUrl },
    });
    expect(signOut.status).toBe(200);

    await relay.createWebhook({ name: 'after-sign-out' });
    await waitFor(() => stream.ended(), 'the signed-out stream to end');
    expect(stream.events()).toEqual([]);
    stream.close();
  });
});
