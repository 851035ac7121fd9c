import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getDelivery, waitForDeliveries } from '../../support/deliveries.js';
import { postRawHeaders } from '../../support/http-request.js';
import { startTestRelay, type TestRelay } from '../../support/relay.js';
import { storeConfig, storeKinds } from '../../support/stores.js';

/** Node's client writes a header value as UTF-8; the relay, as HTTP says, reads its bytes as Latin-1. */
const asReceived = (value: string): string => Buffer.from(value, 'utf8').toString('latin1');

describe.each(storeKinds)('the request headers a log entry keeps (%s)', (storeKind) => {
  let relay: TestRelay;
  beforeEach(async () => {
    relay = await startTestRelay(storeConfig(storeKind));
  });
  afterEach(() => relay.stop());

  it('reads back every header as received: many, repeated, odd bytes, credentials redacted', async () => {
    const { webhook, secret } = await relay.createWebhook({ name: 'many-headers' });
    const body = '{"a":1}';
    const odd = `quote " backslash \\ tab\tlatin1 ${String.fromCharCode(0xe9, 0xa0, 0xff)}`;
    const many = Array.from({ length: 120 }, (_, i): [string, string] => [
      i % 3 === 0 ? 'X-Repeated' : `X-Header-${i}`,
      i % 10 === 0 ? odd : `value ${i}`,
    ]);
    const pairs: Array<[string, string]> = [
      ['authorization', `Bearer ${secret}`],
      ...many,
      ['Cookie', 'session=abc'],
      ['Content-Length', String(body.length)],
    ];
    const sent = await postRawHeaders(webhook.ingressUrl, pairs, body);
    expect(sent.status).toBe(202);

    const entry = await getDelivery(relay, sent.deliveryId!);
    expect(entry.headers).toEqual([
      ['Host', new URL(webhook.ingressUrl).host],
      ['authorization', '[redacted]'],
      ...many.map(([name, value]) => [name, asReceived(value)]),
      ['Cookie', '[redacted]'],
      ['Content-Length', String(body.length)],
      ['Connection', 'close'],
    ]);
  });

  it('keeps a refused request’s headers the same way', async () => {
    const { webhook } = await relay.createWebhook({ name: 'refused-headers' });
    const body = '{"a":1}';
    const pairs: Array<[string, string]> = [
      ['Authorization', 'Bearer wrong'],
      ['X-Repeated', 'a'],
      ['x-repeated', `b ${String.fromCharCode(0xe9)} "\\`],
      ['Content-Length', String(body.length)],
    ];
    const sent = await postRawHeaders(webhook.ingressUrl, pairs, body);
    expect(sent.status).toBe(401);
    // A refusal reaches the log with the next commit, a moment after its answer.
    const [refused] = await waitForDeliveries(relay, webhook.uid, 1);
    const entry = await getDelivery(relay, refused!.id);
    expect(entry.headers).toEqual([
      ['Host', new URL(webhook.ingressUrl).host],
      ['Authorization', '[redacted]'],
      ['X-Repeated', 'a'],
      ['x-repeated', asReceived(`b ${String.fromCharCode(0xe9)} "\\`)],
      ['Content-Length', String(body.length)],
      ['Connection', 'close'],
    ]);
  });
});
