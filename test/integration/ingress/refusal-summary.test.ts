import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';
import { storeConfig, storeKinds } from '../../support/stores.js';

describe.each(storeKinds)('refused requests (404 and 429) (%s)', (storeKind) => {
  let relay: TestRelay;
  beforeEach(async () => {
    relay = await startTestRelay({ ...storeConfig(storeKind), limits: { deliveriesPerMinute: 1 } });
  });
  afterEach(() => relay.stop());

  it('are counted in one summary line instead of one line each', async () => {
    const { secret, ingressUrl } = await relay.createWebhook({ name: 'counted' });
    for (let i = 0; i < 5; i++) {
      expect(
        (await postDelivery(`${relay.ingressUrl}/webhooks/w/wh_${'x'.repeat(24)}`, '{}')).status,
      ).toBe(404);
    }
    expect((await postDelivery(ingressUrl, '{"n":1}', bearer(secret))).status).toBe(202);
    expect((await postDelivery(ingressUrl, '{"n":2}', bearer(secret))).status).toBe(429);
    await relay.core.stop();

    const refusalLines = relay.logs.filter(
      (l) => l.startsWith('[ingress] 404') || l.startsWith('[ingress] 429'),
    );
    expect(refusalLines).toEqual([]);
    const summary = relay.logs.filter((l) => l.includes('refused'));
    expect(summary).toHaveLength(1);
    expect(summary[0]).toContain('refused 6 request(s)');
    expect(summary[0]).toContain('404 no such webhook (unknown or deleted) ×5');
    expect(summary[0]).toContain('429 delivery rate limit ×1');
  });
});
