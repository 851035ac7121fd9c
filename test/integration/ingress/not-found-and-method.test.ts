import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listDeliveries, logSettled } from '../../support/deliveries.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';
import { storeConfig, storeKinds } from '../../support/stores.js';

/** Seed §7: 404 for an unknown webhook; PRODUCT §3: 405 with `Allow: POST` for other methods. */
describe.each(storeKinds)('requests that are not deliveries (%s)', (storeKind) => {
  let relay: TestRelay;
  // One relay for the file: every test sends on webhooks of its own, and what the relay decides
  // and logs is per webhook.
  beforeAll(async () => {
    relay = await startTestRelay(storeConfig(storeKind));
  });
  afterAll(() => relay.stop());

  it('answers 404 for a webhook UID that does not exist or a path that is not a webhook', async () => {
    const sent = await postDelivery(
      `${relay.ingressUrl}/webhooks/w/wh_${'a'.repeat(24)}`,
      '{}',
      bearer('anything'),
    );
    expect(sent.status).toBe(404);
    expect(sent.body.error?.code).toBe('not_found');
    expect((await postDelivery(`${relay.ingressUrl}/webhooks/w/nope`, '{}')).status).toBe(404);
    expect((await postDelivery(`${relay.ingressUrl}/elsewhere`, '{}')).status).toBe(404);
  });

  it('answers 405 with "Allow: POST" to every other method on a webhook URL, and logs nothing', async () => {
    const { secret, ingressUrl, webhook } = await relay.createWebhook({ name: 'methods' });
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      const response = await fetch(ingressUrl, { method, headers: bearer(secret) });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow'), method).toBe('POST');
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
        'method_not_allowed',
      );
    }
    await logSettled(relay);
    expect((await listDeliveries(relay, webhook.uid)).items).toEqual([]);
  });

  it('serves GET /healthz, with or without a query string', async () => {
    for (const path of ['/healthz', '/healthz?probe=1']) {
      const response = await fetch(`${relay.ingressUrl}${path}`);
      expect(response.status, path).toBe(200);
      expect(await response.json()).toEqual({ ok: true, store: storeKind });
    }
    expect((await fetch(`${relay.ingressUrl}/healthzz`)).status).toBe(404);
  });
});
