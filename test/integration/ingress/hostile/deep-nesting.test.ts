import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getDelivery } from '../../../support/deliveries.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../../support/relay.js';
import { storeConfig, storeKinds } from '../../../support/stores.js';

/**
 * PRODUCT §3: deeply nested valid JSON is accepted and kept as raw bytes; nothing clones or
 * re-serializes the parsed value (which is where a recursion limit would bite).
 */
describe.each(storeKinds)('deeply nested JSON (%s)', (storeKind) => {
  let relay: TestRelay;
  beforeEach(async () => {
    relay = await startTestRelay(storeConfig(storeKind));
  });
  afterEach(() => relay.stop());

  it.each([
    ['an array 100,000 levels deep', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
    ['an object 40,000 levels deep', `${'{"a":'.repeat(40_000)}1${'}'.repeat(40_000)}`],
  ])('accepts %s and stores it byte for byte', async (_name, body) => {
    expect(body.length).toBeLessThanOrEqual(262_144);
    const { secret, ingressUrl } = await relay.createWebhook({ name: 'deep' });
    const sent = await postDelivery(ingressUrl, body, bearer(secret));
    expect(sent.status).toBe(202);
    const entry = await getDelivery(relay, sent.body.delivery_id!);
    expect(entry.label).toBe('Accepted');
    expect(entry.payload).toBe(body);
    expect((await postDelivery(ingressUrl, '{"next":1}', bearer(secret))).status).toBe(202);
  });

  it('refuses an unbalanced deep array with 400, not a crash', async () => {
    const { secret, ingressUrl } = await relay.createWebhook({ name: 'unbalanced' });
    const sent = await postDelivery(ingressUrl, '['.repeat(200_000), bearer(secret));
    expect(sent.status).toBe(400);
    expect((await postDelivery(ingressUrl, '[]', bearer(secret))).status).toBe(202);
  });
});
