import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../../src/main/ingress/limits.js';
import { waitForDeliveries } from '../../support/deliveries.js';
import { openRaw, requestHead } from '../../support/raw-http.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';
import { storeConfig, storeKinds } from '../../support/stores.js';

const STREAMED_BYTES = 16 * 1024 * 1024;
const PIECE = Buffer.alloc(64 * 1024, 0x20);

/**
 * PRODUCT §3: a chunked body past the limit is refused as soon as it crosses it — the relay
 * stops reading and never buffers more than the limit plus one chunk.
 */
describe.each(storeKinds)('a chunked body that never ends (%s)', (storeKind) => {
  let relay: TestRelay;
  beforeEach(async () => {
    relay = await startTestRelay(storeConfig(storeKind));
  });
  afterEach(() => relay.stop());

  it('is cut off with 413 long before the sender is done, and the relay keeps serving', async () => {
    const { secret, webhook } = await relay.createWebhook({ name: 'stream' });
    const connection = await openRaw(relay.ingressUrl);
    connection.socket.on('error', () => {}); // EPIPE once the relay hangs up
    let open = true;
    void connection.closed.then(() => (open = false));

    connection.socket.write(
      requestHead('POST', `/webhooks/w/${webhook.uid}`, relay.ingressUrl, [
        ['Authorization', `Bearer ${secret}`],
        ['Transfer-Encoding', 'chunked'],
      ]),
    );
    let written = 0;
    while (open && written < STREAMED_BYTES) {
      const flowing = connection.socket.write(`${PIECE.length.toString(16)}\r\n`);
      connection.socket.write(PIECE);
      connection.socket.write('\r\n');
      written += PIECE.length;
      if (!flowing) {
        await new Promise((resolve) => {
          connection.socket.once('drain', resolve);
          connection.socket.once('close', resolve);
        });
      }
    }
    await connection.closed;

    expect(written).toBeLessThan(STREAMED_BYTES);
    const [response] = connection.responses();
    expect(response?.status).toBe(413);
    expect(response?.headers.connection).toBe('close');
    const [entry] = await waitForDeliveries(relay, webhook.uid, 1);
    expect(entry!.label).toBe('Rejected (too large)');
    // It stopped at the chunk that crossed the limit.
    expect(entry!.size).toBeGreaterThan(MAX_BODY_BYTES);
    expect(entry!.size).toBeLessThanOrEqual(MAX_BODY_BYTES + 2 * PIECE.length);

    const health = await fetch(`${relay.ingressUrl}/healthz`);
    expect(health.status).toBe(200);
    expect(
      (await postDelivery(`${relay.ingressUrl}/webhooks/w/${webhook.uid}`, '{}', bearer(secret)))
        .status,
    ).toBe(202);
  });
});
