import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listDeliveries, logSettled } from '../../support/deliveries.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';

/**
 * PRODUCT §2/§10: two listeners, never one. Nothing on the (tunnelled) ingress listener reads or
 * changes configuration, and the admin listener takes no deliveries.
 */
describe('the two listeners', () => {
  let relay: TestRelay;
  beforeEach(async () => {
    relay = await startTestRelay();
  });
  afterEach(() => relay.stop());

  it('serves no admin route on the ingress listener, even with the admin token', async () => {
    const auth = {
      authorization: `Bearer ${relay.adminToken}`,
      'content-type': 'application/json',
    };
    const probes: Array<[string, string, string?]> = [
      ['GET', '/api/webhooks'],
      ['POST', '/api/webhooks', '{"name":"via-ingress"}'],
      ['GET', '/api/status'],
      ['GET', '/api/settings'],
      ['GET', '/api/tokens'],
      ['POST', '/api/tokens', '{"name":"x","role":"manage"}'],
      ['GET', '/api/events'],
      ['GET', `/login?token=${relay.adminToken}`],
      ['GET', '/'],
      ['GET', '/index.html'],
    ];
    for (const [method, path, body] of probes) {
      const response = await fetch(`${relay.ingressUrl}${path}`, {
        method,
        headers: auth,
        body,
        redirect: 'manual',
      });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.headers.get('set-cookie'), path).toBeNull();
    }
    expect((await relay.api('GET', '/api/webhooks')).body).toEqual({ items: [] });
  });

  it('takes no deliveries on the admin listener', async () => {
    const { secret, webhook } = await relay.createWebhook({ name: 'only-ingress' });
    const onAdmin = await postDelivery(`${relay.adminUrl}/webhooks/w/${webhook.uid}`, '{"a":1}', {
      ...bearer(secret),
      'content-type': 'application/json',
    });
    expect(onAdmin.status).toBe(404);
    const untyped = await fetch(`${relay.adminUrl}/webhooks/w/${webhook.uid}`, {
      method: 'POST',
      headers: bearer(secret),
      body: '{"a":2}',
    });
    expect(untyped.status).toBeGreaterThanOrEqual(400);
    expect(untyped.status).toBeLessThan(500);

    await logSettled(relay);
    expect((await listDeliveries(relay, webhook.uid)).items).toEqual([]);
  });

  it('answers /healthz on both', async () => {
    for (const base of [relay.ingressUrl, relay.adminUrl]) {
      expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ ok: true, store: 'sqlite' });
    }
  });
});
