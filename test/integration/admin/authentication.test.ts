import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { httpRequest } from '../../support/http-request.js';
import { startTestRelay, type TestRelay } from '../../support/relay.js';

/** PRODUCT §10/§11: the management API needs the admin token (or a session); 401 otherwise. */
describe('admin API authentication', () => {
  let relay: TestRelay;
  beforeEach(async () => {
    relay = await startTestRelay();
  });
  afterEach(() => relay.stop());

  it.each([
    ['no credential', null],
    ['a wrong token', 'hpa_wrong'],
    ['an ingress secret', 'looks-like-a-secret-but-is-not'],
  ])('answers 401 to %s, on reads and on writes', async (_name, token) => {
    const read = await relay.api('GET', '/api/webhooks', undefined, { token });
    expect(read.status).toBe(401);
    expect(read.body).toMatchObject({ error: { code: 'unauthorized' } });
    const write = await relay.api('POST', '/api/webhooks', { name: 'sneaky' }, { token });
    expect(write.status).toBe(401);
    expect((await relay.api('GET', '/api/webhooks')).body).toEqual({ items: [] });
  });

  it('answers 401 to an Authorization header that is not a Bearer token', async () => {
    const response = await httpRequest(`${relay.adminUrl}/api/status`, {
      headers: { authorization: `Token ${relay.adminToken}` },
    });
    expect(response.status).toBe(401);
  });

  it('answers 401 on the event stream without a credential', async () => {
    const response = await httpRequest(`${relay.adminUrl}/api/events`);
    expect(response.status).toBe(401);
  });

  it('accepts the admin token with the manage role', async () => {
    const status = await relay.api('GET', '/api/status');
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ role: 'manage' });
  });

  it('serves /healthz without a credential', async () => {
    const response = await fetch(`${relay.adminUrl}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, store: 'sqlite' });
  });
});
