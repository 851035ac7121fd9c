import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openRaw } from '../../../support/raw-http.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../../support/relay.js';
import { storeConfig, storeKinds } from '../../../support/stores.js';

/**
 * The relay's 10 s for the headers, checked every second, shortened here (`ingressDeadlines`):
 * the same cut-off, seconds sooner. slow-body.test.ts checks the 10 s itself.
 */
const HEADERS_MS = 1_000;
const DEADLINES = {
  headersMs: HEADERS_MS,
  requestMs: 2 * HEADERS_MS,
  checkEveryMs: HEADERS_MS / 10,
};

/**
 * PRODUCT §3: a socket that has not sent its headers within ~10 s is closed within 15 s. The
 * stores wait side by side (one test, one relay each), concurrently.
 */
describe.concurrent.each(storeKinds)(
  'a sender that never finishes its headers (%s)',
  (storeKind) => {
    let relay: TestRelay;
    beforeEach(async () => {
      relay = await startTestRelay({ ...storeConfig(storeKind), ingressDeadlines: DEADLINES });
    });
    afterEach(() => relay.stop());

    it('is disconnected within 1.5 deadlines while other senders are served', async () => {
      const { secret, ingressUrl, webhook } = await relay.createWebhook({ name: 'slowloris' });
      const connection = await openRaw(relay.ingressUrl);
      const openedAt = Date.now();
      connection.socket.write(`POST /webhooks/w/${webhook.uid} HTTP/1.1\r\nHost: x\r\n`);
      const drip = setInterval(() => connection.socket.write('X-Drip: 1\r\n'), HEADERS_MS / 10);

      expect((await postDelivery(ingressUrl, '{"meanwhile":true}', bearer(secret))).status).toBe(
        202,
      );
      await connection.closed;
      clearInterval(drip);
      // As 15 s of the real 10 s.
      expect(Date.now() - openedAt).toBeLessThan(HEADERS_MS * 1.5);
      const [response] = connection.responses();
      if (response) expect(response.status).toBe(408);

      expect((await postDelivery(ingressUrl, '{"after":true}', bearer(secret))).status).toBe(202);
    });
  },
);
