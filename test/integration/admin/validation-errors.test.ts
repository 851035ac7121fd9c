import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from '../../support/relay.js';

/** PRODUCT §11: every validation error is 400 `{"error":{"code","message","path"}}` naming the field. */
describe('invalid management input', () => {
  let relay: TestRelay;
  let uid: string;
  // One relay for the file: every call here is refused, so none changes what the next one sees.
  beforeAll(async () => {
    relay = await startTestRelay();
    uid = (await relay.createWebhook({ name: 'existing' })).webhook.uid;
  });
  afterAll(() => relay.stop());

  const cases: Array<[string, string, () => string, unknown, string]> = [
    ['a name with spaces', 'POST', () => '/api/webhooks', { name: 'my hook' }, 'name'],
    ['a missing name', 'POST', () => '/api/webhooks', {}, 'name'],
    [
      'an unknown auth mode',
      'POST',
      () => '/api/webhooks',
      { name: 'a', authMode: 'basic' },
      'authMode',
    ],
    [
      'a signature webhook without a scheme',
      'POST',
      () => '/api/webhooks',
      { name: 'a', authMode: 'signature', secret: 'whsec_x' },
      'signatureScheme',
    ],
    [
      'an unknown scheme',
      'POST',
      () => '/api/webhooks',
      { name: 'a', authMode: 'signature', signatureScheme: 'carrier-pigeon' },
      'signatureScheme',
    ],
    [
      'a secret for a token webhook',
      'POST',
      () => '/api/webhooks',
      { name: 'a', secret: 'chosen-by-me' },
      'secret',
    ],
    [
      'a delivery ID header that is not a header name',
      'POST',
      () => '/api/webhooks',
      { name: 'a', deliveryIdHeader: 'X Id:' },
      'deliveryIdHeader',
    ],
    ['an unknown field', 'POST', () => '/api/webhooks', { name: 'a', colour: 'red' }, 'colour'],
    ['a non-boolean enabled', 'PATCH', () => `/api/webhooks/${uid}`, { enabled: 'yes' }, 'enabled'],
    ['a bad rename', 'PATCH', () => `/api/webhooks/${uid}`, { name: '../etc' }, 'name'],
    ['a malformed UID', 'GET', () => '/api/webhooks/not-a-uid', undefined, 'uid'],
    ['a malformed delivery ID', 'GET', () => '/api/deliveries/42', undefined, 'id'],
    ['an empty token name', 'POST', () => '/api/tokens', { name: '', role: 'view' }, 'name'],
    ['an unknown role', 'POST', () => '/api/tokens', { name: 't', role: 'admin' }, 'role'],
    [
      'retention below 7 days',
      'PATCH',
      () => '/api/settings',
      { retentionDays: 3 },
      'retentionDays',
    ],
    [
      'a public URL that is not http(s)',
      'PATCH',
      () => '/api/settings',
      { publicUrl: 'ftp://tunnel' },
      'publicUrl',
    ],
    [
      'a public URL with a query, which would land in the middle of every ingress URL',
      'PATCH',
      () => '/api/settings',
      { publicUrl: 'https://hooks.example.test/relay?x=1' },
      'publicUrl',
    ],
  ];

  it.each(cases)('%s → 400 naming the field', async (_name, method, path, body, field) => {
    const response = await relay.api<{ error: { code: string; message: string; path: string } }>(
      method,
      path(),
      body,
    );
    expect(response.status).toBe(400);
    expect(Object.keys(response.body)).toEqual(['error']);
    expect(Object.keys(response.body.error).sort()).toEqual(['code', 'message', 'path']);
    expect(response.body.error).toMatchObject({ code: 'invalid_input', path: field });
    expect(response.body.error.message).toContain(field);
  });

  it('refuses a body that is not JSON, or not a JSON object, with 400', async () => {
    const notJson = await relay.api('POST', '/api/webhooks', '{"name":', {});
    expect(notJson.status).toBe(400);
    expect(notJson.body).toMatchObject({ error: { code: 'invalid_input' } });
    const notObject = await relay.api('POST', '/api/webhooks', '["name"]', {});
    expect(notObject.status).toBe(400);
    const notTyped = await relay.api('POST', '/api/webhooks', '{"name":"x"}', {
      headers: { 'content-type': 'text/plain' },
    });
    expect(notTyped.status).toBe(400);
  });

  it('says when a body is too large, or uses __proto__, rather than calling it invalid JSON', async () => {
    const filter = { action: 'x'.repeat(1024 * 1024) };
    const huge = await relay.api('POST', '/api/automations', { name: 'huge', filter });
    expect(huge).toMatchObject({
      status: 413,
      body: { error: { code: 'payload_too_large', message: 'The request body is over 1 MB.' } },
    });

    const poisoned = await relay.api('POST', '/api/webhooks', '{"name":"x","__proto__":{}}', {});
    expect(poisoned).toMatchObject({
      status: 400,
      body: {
        error: {
          code: 'invalid_input',
          message: 'The request body must not use the key "__proto__".',
        },
      },
    });
    const names = (await relay.api<{ items: { name: string }[] }>('GET', '/api/webhooks')).body;
    expect(names.items.map((webhook) => webhook.name)).not.toContain('x');
  });
});
