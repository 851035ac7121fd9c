import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { httpRequest } from '../../support/http-request.js';
import { exchangeRaw, requestHead } from '../../support/raw-http.js';
import { deleteAllWebhooks, startTestRelay, type TestRelay } from '../../support/relay.js';

/**
 * PRODUCT §10: the admin listener answers only when Host names it exactly (DNS rebinding), and
 * refuses a foreign Origin on every state-changing request and on the event stream.
 */
describe('the admin listener Host and Origin guard', () => {
  let relay: TestRelay;
  let port: string;
  beforeAll(async () => {
    relay = await startTestRelay();
    port = new URL(relay.adminUrl).port;
  });
  afterAll(() => relay.stop());
  // One relay for the file; each test starts with no webhooks, as on a fresh relay.
  afterEach(() => deleteAllWebhooks(relay));

  const call = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
    httpRequest(`${relay.adminUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${relay.adminToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  const webhookNames = async (): Promise<string[]> =>
    (await relay.api<{ items: Array<{ name: string }> }>('GET', '/api/webhooks')).body.items.map(
      (w) => w.name,
    );

  it('answers to 127.0.0.1, localhost and [::1] with its port', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      expect((await call('GET', '/api/status', { host })).status, host).toBe(200);
    }
  });

  it('refuses any other Host with 403, even with a valid token', async () => {
    const foreign = [
      'evil.example',
      `evil.example:${port}`,
      `127.0.0.1.nip.io:${port}`,
      `localhost.evil.example:${port}`,
      '127.0.0.1',
      `127.0.0.1:${Number(port) + 1}`,
      `0.0.0.0:${port}`,
    ];
    for (const host of foreign) {
      const response = await call('GET', '/api/webhooks', { host });
      expect(response.status, host).toBe(403);
      expect(JSON.parse(response.body), host).toMatchObject({ error: { code: 'forbidden' } });
      expect((await call('POST', '/api/webhooks', { host }, { name: 'rebound' })).status).toBe(403);
    }
    expect(await webhookNames()).toEqual([]);
  });

  it('refuses a request with two Host headers, whichever comes first', async () => {
    const auth: [string, string] = ['Authorization', `Bearer ${relay.adminToken}`];
    for (const second of ['evil.example', `localhost:${port}`]) {
      const head = requestHead('GET', '/api/status', relay.adminUrl, [
        ['Host', second],
        auth,
        ['Connection', 'close'],
      ]);
      const [response] = await exchangeRaw(relay.adminUrl, [head]);
      expect(response?.status, second).toBe(403);
    }
    const single = requestHead('GET', '/api/status', relay.adminUrl, [
      auth,
      ['Connection', 'close'],
    ]);
    expect((await exchangeRaw(relay.adminUrl, [single]))[0]?.status).toBe(200);
  });

  it('refuses a write whose Origin is not its own with 403, and changes nothing', async () => {
    for (const origin of [
      'http://evil.example',
      `http://localhost:${Number(port) + 1}`,
      `https://127.0.0.1:${port}`,
      'null',
    ]) {
      const response = await call('POST', '/api/webhooks', { origin }, { name: 'csrf' });
      expect(response.status, origin).toBe(403);
    }
    const target = await relay.createWebhook({ name: 'kept' });
    const uid = target.webhook.uid;
    const evil = { origin: 'http://evil.example' };
    expect((await call('PATCH', `/api/webhooks/${uid}`, evil, { enabled: false })).status).toBe(
      403,
    );
    expect((await call('POST', `/api/webhooks/${uid}/rotate`, evil, {})).status).toBe(403);
    expect((await call('DELETE', `/api/webhooks/${uid}`, evil)).status).toBe(403);
    expect(
      (await call('POST', '/api/webhooks', { 'sec-fetch-site': 'cross-site' }, { name: 'x' }))
        .status,
    ).toBe(403);

    const after = await relay.api<{ enabled: boolean }>('GET', `/api/webhooks/${uid}`);
    expect(after.body.enabled).toBe(true);
    expect(await webhookNames()).toEqual(['kept']);
  });

  it('accepts a write from its own Origin, or with no Origin (a script)', async () => {
    const own = await call(
      'POST',
      '/api/webhooks',
      { origin: `http://localhost:${port}` },
      { name: 'a' },
    );
    expect(own.status).toBe(201);
    expect((await call('POST', '/api/webhooks', {}, { name: 'b' })).status).toBe(201);
  });

  it('refuses the event stream to a foreign Origin and serves it to its own', async () => {
    const foreign = await httpRequest(`${relay.adminUrl}/api/events`, {
      headers: { authorization: `Bearer ${relay.adminToken}`, origin: 'http://evil.example' },
    });
    expect(foreign.status).toBe(403);
    const own = await httpRequest(`${relay.adminUrl}/api/events`, {
      headers: { authorization: `Bearer ${relay.adminToken}`, origin: `http://127.0.0.1:${port}` },
      untilHeaders: true,
    });
    expect(own.status).toBe(200);
    expect(own.headers['content-type']).toMatch(/^text\/event-stream/);
  });

  it('lets reads through with a foreign Origin but grants no CORS access', async () => {
    const response = await call('GET', '/api/webhooks', { origin: 'http://evil.example' });
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });
});
