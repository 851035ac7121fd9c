import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDelivery, waitForDeliveries } from '../../support/deliveries.js';
import { exchangeRaw, requestHead } from '../../support/raw-http.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';
import { storeConfig, storeKinds } from '../../support/stores.js';

/** Seed §7: 400, 401 and 413 are answered at once and logged with metadata only, never a payload. */
describe.each(storeKinds)('a rejected delivery (%s)', (storeKind) => {
  let relay: TestRelay;
  // One relay for the file: every test sends on webhooks of its own, and what the relay decides
  // and logs is per webhook.
  beforeAll(async () => {
    relay = await startTestRelay(storeConfig(storeKind));
  });
  afterAll(() => relay.stop());

  it('answers 400 for a body that is not JSON and logs "Rejected (invalid JSON)" without the body', async () => {
    const { secret, ingressUrl, webhook } = await relay.createWebhook({ name: 'json' });
    const raw = '{"order": 42,';
    const sent = await postDelivery(ingressUrl, raw, bearer(secret));
    expect(sent.status).toBe(400);
    expect(sent.body.error?.code).toBe('invalid_json');

    const [entry] = await waitForDeliveries(relay, webhook.uid, 1);
    expect(entry).toMatchObject({
      label: 'Rejected (invalid JSON)',
      size: Buffer.byteLength(raw),
      clientAddress: '127.0.0.1',
      duplicateOf: null,
    });
    expect(entry!.reason).toMatch(/not valid JSON/);
    expect(Date.parse(entry!.receivedAt)).toBeGreaterThan(Date.now() - 60_000);
    const full = await getDelivery(relay, entry!.id);
    expect(full.payload).toBeNull();
    expect(JSON.stringify(full)).not.toContain('"order"');
  });

  it('answers 401 for a wrong token and logs "Rejected (auth)" without saying which check failed', async () => {
    const { ingressUrl, webhook } = await relay.createWebhook({ name: 'auth' });
    const sent = await postDelivery(ingressUrl, '{"a":1}', bearer('not-the-secret'));
    expect(sent.status).toBe(401);
    expect(sent.body.error).toEqual({
      code: 'unauthorized',
      message: 'Authentication failed for this webhook.',
    });

    const [entry] = await waitForDeliveries(relay, webhook.uid, 1);
    expect(entry).toMatchObject({ label: 'Rejected (auth)', clientAddress: '127.0.0.1' });
    expect(entry!.reason).toBe('token does not match');
    expect((await getDelivery(relay, entry!.id)).payload).toBeNull();
  });

  it('answers 401 when the Authorization header is missing or not a Bearer token', async () => {
    const { secret, ingressUrl, webhook } = await relay.createWebhook({ name: 'no-auth' });
    expect((await postDelivery(ingressUrl, '{}')).status).toBe(401);
    expect(
      (await postDelivery(ingressUrl, '{}', { authorization: `Basic ${secret}` })).status,
    ).toBe(401);
    const entries = await waitForDeliveries(relay, webhook.uid, 2);
    expect(entries.map((e) => e.label)).toEqual(['Rejected (auth)', 'Rejected (auth)']);
    expect(entries.map((e) => e.reason).sort()).toEqual([
      'Authorization header is not "Bearer <token>"',
      'missing Authorization header',
    ]);
  });

  it('answers 401 to two Authorization headers, even when the first holds the token', async () => {
    const { secret, ingressUrl, webhook } = await relay.createWebhook({ name: 'twice' });
    const path = new URL(ingressUrl).pathname;
    for (const pair of [
      [`Bearer ${secret}`, 'Bearer wrong'],
      ['Bearer wrong', `Bearer ${secret}`],
    ]) {
      const head = requestHead('POST', path, relay.ingressUrl, [
        ['Authorization', pair[0]!],
        ['Authorization', pair[1]!],
        ['Content-Type', 'application/json'],
        ['Content-Length', '2'],
        ['Connection', 'close'],
      ]);
      const [response] = await exchangeRaw(relay.ingressUrl, [head, '{}']);
      expect(response?.status).toBe(401);
    }
    const entries = await waitForDeliveries(relay, webhook.uid, 2);
    expect(entries.map((e) => e.reason)).toEqual([
      'more than one Authorization header',
      'more than one Authorization header',
    ]);
  });

  it('answers 413 for a body over 256 KB and logs "Rejected (too large)" with its size', async () => {
    const { secret, ingressUrl, webhook } = await relay.createWebhook({ name: 'big' });
    const raw = `"${'x'.repeat(300_000)}"`;
    const sent = await postDelivery(ingressUrl, raw, bearer(secret));
    expect(sent.status).toBe(413);
    expect(sent.body.error?.code).toBe('payload_too_large');

    const [entry] = await waitForDeliveries(relay, webhook.uid, 1);
    // Past the limit a size is stored as limit + 1, the declared length kept in the reason.
    expect(entry).toMatchObject({
      label: 'Rejected (too large)',
      size: 262_145,
      reason: `body exceeds 262144 bytes (declared ${raw.length})`,
    });
    expect((await getDelivery(relay, entry!.id)).payload).toBeNull();
  });
});
