import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listDeliveries, logSettled } from '../../../support/deliveries.js';
import { openRaw, requestHead } from '../../../support/raw-http.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../../support/relay.js';
import { storeConfig, storeKinds } from '../../../support/stores.js';

/**
 * PRODUCT §3: a body must finish within ~30 s. A trickling body is cut off and leaves no row.
 * (This is the one test that waits the full 30 s; the stores wait side by side, concurrently.)
 */
describe.concurrent.each(storeKinds)('a body that trickles in (%s)', (storeKind) => {
  let relay: TestRelay;
  beforeEach(async () => {
    relay = await startTestRelay(storeConfig(storeKind));
  });
  afterEach(() => relay.stop());

  it('is cut off after about 30 s with a 408, leaving no row', { timeout: 60_000 }, async () => {
    const { secret, ingressUrl, webhook } = await relay.createWebhook({ name: 'trickle' });
    const connection = await openRaw(relay.ingressUrl);
    connection.socket.on('error', () => {});
    const startedAt = Date.now();
    connection.socket.write(
      requestHead('POST', `/webhooks/w/${webhook.uid}`, relay.ingressUrl, [
        ['Authorization', `Bearer ${secret}`],
        ['Content-Length', '100'],
      ]) + '[',
    );
    // One byte a second: the body would need 100 s.
    const drip = setInterval(() => connection.socket.write('1'), 1_000);
    await connection.closed;
    clearInterval(drip);

    const elapsed = Date.now() - startedAt;
    expect(elapsed).toBeGreaterThan(20_000);
    expect(elapsed).toBeLessThan(45_000);
    expect(connection.responses().map((r) => r.status)).toEqual([408]);
    expect(JSON.parse(connection.responses()[0]!.body)).toEqual({
      error: {
        code: 'request_timeout',
        message:
          'The request took too long: send the headers within 10 s and the whole request within 30 s.',
      },
    });

    await logSettled(relay);
    expect((await listDeliveries(relay, webhook.uid)).items).toEqual([]);
    expect((await postDelivery(ingressUrl, '[1]', bearer(secret))).status).toBe(202);
  });
});
