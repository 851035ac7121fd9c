import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listDeliveries, logSettled } from '../../../support/deliveries.js';
import { openRaw, requestHead } from '../../../support/raw-http.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../../support/relay.js';
import { waitFor } from '../../../support/wait.js';
import { storeConfig, storeKinds } from '../../../support/stores.js';

/** PRODUCT §3: a sender that goes away mid-body was promised nothing, and nothing is recorded. */
describe.each(storeKinds)('an aborted request (%s)', (storeKind) => {
  let relay: TestRelay;
  beforeEach(async () => {
    relay = await startTestRelay(storeConfig(storeKind));
  });
  afterEach(() => relay.stop());

  it.each([
    ['with a Content-Length', [['Content-Length', '1000']], '{"half":'],
    ['chunked', [['Transfer-Encoding', 'chunked']], '8\r\n{"half":\r\n'],
  ] as Array<[string, Array<[string, string]>, string]>)(
    'leaves no row when cut mid-body (%s)',
    async (_name, headers, partialBody) => {
      const { secret, ingressUrl, webhook } = await relay.createWebhook({ name: 'aborts' });
      const connection = await openRaw(relay.ingressUrl);
      // `Expect: 100-continue` makes the relay say when the request has reached its handler.
      connection.socket.write(
        requestHead('POST', `/webhooks/w/${webhook.uid}`, relay.ingressUrl, [
          ['Authorization', `Bearer ${secret}`],
          ['Expect', '100-continue'],
          ...headers,
        ]),
      );
      await waitFor(
        () => connection.received().includes('100 Continue'),
        'the relay to start reading the body',
      );
      connection.socket.write(partialBody);
      connection.socket.destroy();
      await waitFor(
        () => relay.logs.find((l) => l.includes('sender aborted the request')),
        'the relay to notice the abort',
      );

      await logSettled(relay);
      expect((await listDeliveries(relay, webhook.uid)).items).toEqual([]);
      expect((await postDelivery(ingressUrl, '{"whole":true}', bearer(secret))).status).toBe(202);
    },
  );
});
