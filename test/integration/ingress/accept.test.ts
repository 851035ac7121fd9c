import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';
import { storeConfig, storeKinds } from '../../support/stores.js';

describe.each(storeKinds)('an accepted delivery (%s)', (storeKind) => {
  let relay: TestRelay;
  beforeEach(async () => {
    relay = await startTestRelay(storeConfig(storeKind));
  });
  afterEach(() => relay.stop());

  it('answers 202 with its delivery ID and stores the payload byte for byte', async () => {
    const { secret, ingressUrl } = await relay.createWebhook({ name: 'orders' });
    const raw = '{ "order": 42,\n  "note": "caf\u00e9 \u2603" }';
    const sent = await postDelivery(ingressUrl, raw, bearer(secret));
    expect(sent.status).toBe(202);
    expect(sent.body.delivery_id).toMatch(/^dlv_[0-9A-HJKMNP-TV-Z]{26}$/);

    const entry = await relay.call('deliveries.get', { id: sent.body.delivery_id! });
    expect(entry).toMatchObject({
      label: 'Accepted',
      size: Buffer.byteLength(raw),
      payload: raw,
    });
  });

  it('accepts any JSON value: arrays and scalars too', async () => {
    const { secret, ingressUrl } = await relay.createWebhook({ name: 'anything' });
    for (const raw of ['[1,2,3]', '"text"', '42', 'true', 'null']) {
      const sent = await postDelivery(ingressUrl, raw, bearer(secret));
      expect(sent.status, raw).toBe(202);
    }
  });
});
