import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openRaw } from '../../../support/raw-http.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../../support/relay.js';
import { storeConfig, storeKinds } from '../../../support/stores.js';

/**
 * PRODUCT §3: a socket that has not sent its headers within ~10 s is closed within 15 s. The
 * stores wait side by side (one test, one relay each), concurrently.
 */
describe.concurrent.each(storeKinds)(
  'a sender that never finishes its headers (%s)',
  (storeKind) => {
    let relay: TestRelay;
    beforeEach(async () => {
      relay = await startTestRelay(storeConfig(storeKind));
    });
    afterEach(() => relay.stop());

    it(
      'is disconnected within 15 s while other senders are served',
      { timeout: 25_000 },
      async () => {
        const { secret, ingressUrl, webhook } = await relay.createWebhook({ name: 'slowloris' });
        const connection = await openRaw(relay.ingressUrl);
        const openedAt = Date.now();
        connection.socket.write(`POST /webhooks/w/${webhook.uid} HTTP/1.1\r\nHost: x\r\n`);
        const drip = setInterval(() => connection.socket.write('X-Drip: 1\r\n'), 1_000);

        expect((await postDelivery(ingressUrl, '{"meanwhile":true}', bearer(secret))).status).toBe(
          202,
        );
        await connection.closed;
        clearInterval(drip);
        expect(Date.now() - openedAt).toBeLessThan(15_000);
        const [response] = connection.responses();
        if (response) expect(response.status).toBe(408);

        expect((await postDelivery(ingressUrl, '{"after":true}', bearer(secret))).status).toBe(202);
      },
    );
  },
);
