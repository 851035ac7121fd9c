import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../../src/main/ingress/limits.js';
import { getDelivery, waitForDeliveries } from '../../support/deliveries.js';
import { bearer, startTestRelay, type TestRelay } from '../../support/relay.js';
import { storeConfig, storeKinds } from '../../support/stores.js';

/** PRODUCT §9: 262,144 bytes is accepted, one more is not — declared or streamed. */
describe.each(storeKinds)('the 256 KB body limit (%s)', (storeKind) => {
  let relay: TestRelay;
  let secret: string | null;
  let ingressUrl: string;
  let uid: string;
  beforeAll(async () => {
    relay = await startTestRelay(storeConfig(storeKind));
  });
  afterAll(() => relay.stop());
  // A webhook of its own per test: its log is the test's alone (deleted after it, since a
  // factory holds 20 live webhooks).
  beforeEach(async () => {
    ({
      secret,
      ingressUrl,
      webhook: { uid },
    } = await relay.createWebhook({ name: 'limit' }));
  });
  afterEach(() => relay.call('webhooks.delete', { uid }));

  /** A JSON string of exactly `size` bytes. */
  const jsonOfSize = (size: number): string => `"${'x'.repeat(size - 2)}"`;

  /** The same bytes sent with Transfer-Encoding: chunked, in 16 KB pieces, with no length declared. */
  const chunked = (text: string): ReadableStream<Uint8Array> => {
    const bytes = Buffer.from(text);
    let offset = 0;
    return new ReadableStream({
      pull(controller) {
        if (offset >= bytes.length) return controller.close();
        controller.enqueue(bytes.subarray(offset, offset + 16_384));
        offset += 16_384;
      },
    });
  };

  const send = async (body: string | ReadableStream<Uint8Array>) => {
    const response = await fetch(ingressUrl, {
      method: 'POST',
      headers: bearer(secret),
      body,
      duplex: 'half',
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it('accepts exactly 262,144 bytes with a declared Content-Length and stores them all', async () => {
    expect(MAX_BODY_BYTES).toBe(262_144);
    const raw = jsonOfSize(262_144);
    const sent = await send(raw);
    expect(sent.status).toBe(202);
    const entry = await getDelivery(relay, sent.body.delivery_id as string);
    expect(entry).toMatchObject({ label: 'Accepted', size: 262_144 });
    expect(entry.payload).toBe(raw);
  });

  it('refuses 262,145 bytes with a declared Content-Length: 413, "Rejected (too large)"', async () => {
    const sent = await send(jsonOfSize(262_145));
    expect(sent.status).toBe(413);
    const [entry] = await waitForDeliveries(relay, uid, 1);
    expect(entry).toMatchObject({ label: 'Rejected (too large)', size: 262_145 });
  });

  it('accepts exactly 262,144 bytes streamed chunked', async () => {
    const sent = await send(chunked(jsonOfSize(262_144)));
    expect(sent.status).toBe(202);
    expect(await getDelivery(relay, sent.body.delivery_id as string)).toMatchObject({
      label: 'Accepted',
      size: 262_144,
    });
  });

  it('refuses 262,145 bytes streamed chunked: 413, "Rejected (too large)"', async () => {
    const sent = await send(chunked(jsonOfSize(262_145)));
    expect(sent.status).toBe(413);
    const [entry] = await waitForDeliveries(relay, uid, 1);
    expect(entry!.label).toBe('Rejected (too large)');
    expect(entry!.size).toBeGreaterThan(262_144);
  });
});
