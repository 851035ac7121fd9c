import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_DEADLINES, listen } from '../../../../src/main/http/listener.js';
import { listDeliveries, logSettled } from '../../../support/deliveries.js';
import { openRaw, requestHead } from '../../../support/raw-http.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../../support/relay.js';
import { storeConfig, storeKinds } from '../../../support/stores.js';

/**
 * The relay's 30 s for a whole request, shortened to REQUEST_MS here (`ingressDeadlines`): the
 * same cut-off, seconds sooner. The 30 s itself is checked on a listener with the defaults.
 */
const REQUEST_MS = 2_000;
const DEADLINES = { headersMs: 1_000, requestMs: REQUEST_MS, checkEveryMs: 50 };

it('gives a sender 10 s for its headers and 30 s for its whole request by default', async () => {
  expect(DEFAULT_DEADLINES).toMatchObject({ headersMs: 10_000, requestMs: 30_000 });
  const listener = await listen(() => {}, '127.0.0.1', 0);
  expect(listener.server.headersTimeout).toBe(10_000);
  expect(listener.server.requestTimeout).toBe(30_000);
  await listener.close();
});

/** PRODUCT §3: a body must finish within ~30 s. A trickling body is cut off and leaves no row. */
describe.concurrent.each(storeKinds)('a body that trickles in (%s)', (storeKind) => {
  let relay: TestRelay;
  beforeEach(async () => {
    relay = await startTestRelay({ ...storeConfig(storeKind), ingressDeadlines: DEADLINES });
  });
  afterEach(() => relay.stop());

  it('is cut off at the request deadline with a 408, leaving no row', async () => {
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
    // One byte every 1/30 of the deadline: the body would need more than three deadlines.
    const drip = setInterval(() => connection.socket.write('1'), REQUEST_MS / 30);
    await connection.closed;
    clearInterval(drip);

    // As 20 s to 45 s of the real 30 s.
    const elapsed = Date.now() - startedAt;
    expect(elapsed).toBeGreaterThan((REQUEST_MS * 2) / 3);
    expect(elapsed).toBeLessThan(REQUEST_MS * 1.5);
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
