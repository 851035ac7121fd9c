import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listDeliveries, logSettled } from '../../../support/deliveries.js';
import { exchangeRaw, requestHead } from '../../../support/raw-http.js';
import { startTestRelay, type CreatedWebhook, type TestRelay } from '../../../support/relay.js';
import { storeConfig, storeKinds } from '../../../support/stores.js';

/**
 * PRODUCT §3: the path is matched undecoded, so `%2F`, `%2e%2e`, a malformed `%`, full-width
 * characters or a trailing slash never resolve to a webhook: 404, nothing logged.
 */
describe.each(storeKinds)('odd path segments (%s)', (storeKind) => {
  let relay: TestRelay;
  let tokenHook: CreatedWebhook;
  let urlHook: CreatedWebhook;
  beforeEach(async () => {
    relay = await startTestRelay(storeConfig(storeKind));
    tokenHook = await relay.createWebhook({ name: 'header-token' });
    urlHook = await relay.createWebhook({ name: 'url-token', authMode: 'url_token' });
  });
  afterEach(() => relay.stop());

  /** Sends the exact request target, with the bearer secret, and returns the status. */
  async function statusFor(target: string): Promise<number> {
    const [response] = await exchangeRaw(relay.ingressUrl, [
      requestHead('POST', target, relay.ingressUrl, [
        ['Authorization', `Bearer ${tokenHook.secret}`],
        ['Content-Length', '2'],
        ['Connection', 'close'],
      ]) + '{}',
    ]);
    return response?.status ?? 0;
  }

  it('answers 404 to each, logs nothing, and the plain path still works', async () => {
    const uid = tokenHook.webhook.uid;
    const urlUid = urlHook.webhook.uid;
    const token = urlHook.secret!;
    const targets = [
      `/webhooks/w/${uid}/`,
      `//webhooks/w/${uid}`,
      `/webhooks/w%2F${uid}`,
      `/webhooks%2Fw%2F${uid}`,
      `/webhooks/w/${uid}%2F`,
      `/webhooks/w/%2e%2e/w/${uid}`,
      `/webhooks/x/%2e%2e/w/${uid}`,
      `/webhooks/w/../w/${uid}`,
      `/webhooks/w/./${uid}`,
      `/webhooks/w/${uid}/%2e%2e`,
      `/webhooks/w/${uid}%`,
      `/webhooks/w/%${uid}`,
      `/webhooks/w/${uid}%zz`,
      `/webhooks/w/${uid.replace('_', '%5F')}`,
      `/webhooks/w/${uid.toUpperCase()}`,
      `/webhooks/%EF%BD%97/${uid}`, // full-width ｗ, as a client percent-encodes it
      `/webhooks/w/${uid}%EF%BC%8F`, // full-width ／
      `/webhooks/w/${urlUid}/${token}/`,
      `/webhooks/w/${urlUid}%2F${token}`,
      `/webhooks/w/${urlUid}/x/${token}`,
    ];
    for (const target of targets) expect(await statusFor(target), target).toBe(404);

    await logSettled(relay);
    for (const hook of [tokenHook, urlHook]) {
      expect((await listDeliveries(relay, hook.webhook.uid)).items).toEqual([]);
    }
    expect(await statusFor(`/webhooks/w/${uid}`)).toBe(202);
  });

  it('refuses raw (unencoded) full-width characters in the request line with a 4xx', async () => {
    const [response] = await exchangeRaw(relay.ingressUrl, [
      Buffer.from(
        requestHead('POST', `/webhooks/\uFF57/${tokenHook.webhook.uid}`, relay.ingressUrl, [
          ['Content-Length', '2'],
          ['Connection', 'close'],
        ]) + '{}',
        'utf8',
      ),
    ]);
    // Node's HTTP parser refuses non-ASCII request targets before the relay sees them.
    expect(response?.status).toBeGreaterThanOrEqual(400);
    expect(response?.status).toBeLessThan(500);
    expect(await statusFor(`/webhooks/w/${tokenHook.webhook.uid}`)).toBe(202);
  });
});
