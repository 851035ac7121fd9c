import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listDeliveries, logSettled } from '../../support/deliveries.js';
import {
  bearer,
  postDelivery,
  startTestRelay,
  type CreatedWebhook,
  type TestRelay,
} from '../../support/relay.js';
import { storeConfig, storeKinds } from '../../support/stores.js';

/**
 * Seed §8, PRODUCT §3 step 6: more than 60 authenticated deliveries in the last 60 s for one
 * webhook → 429 with Retry-After (seconds until a slot frees), and no log entry. The relay's
 * clock is injected so the window can be walked through exactly.
 */
describe.each(storeKinds)('the delivery rate limit (%s)', (storeKind) => {
  let relay: TestRelay;
  let clock: number;
  let hook: CreatedWebhook;
  let sequence = 0;
  beforeEach(async () => {
    clock = Date.parse('2026-03-01T12:00:00Z');
    relay = await startTestRelay({ ...storeConfig(storeKind), now: () => clock });
    hook = await relay.createWebhook({ name: 'busy' });
  });
  afterEach(() => relay.stop());

  const deliver = (target: CreatedWebhook = hook) =>
    postDelivery(target.ingressUrl, '{"tick":true}', {
      ...bearer(target.secret),
      'x-service-delivery-id': `evt-${++sequence}`,
    });

  it('accepts the 60th delivery in a minute and answers the 61st with 429, Retry-After 60 and no log entry', async () => {
    const started = Date.now();
    for (let i = 1; i <= 60; i++) expect((await deliver()).status, `delivery ${i}`).toBe(202);

    const refused = await deliver();
    expect(refused.status).toBe(429);
    // On PostgreSQL a slot counts a second longer: the hold of the replica that reserved it
    // (shared-rate-limiter.ts), so no replica's reserved slot is ever used past the window.
    // PostgreSQL counts on the database's clock, which moved while the 60 were sent.
    const retryAfter = Number(refused.headers.get('retry-after'));
    if (storeKind === 'sqlite') expect(retryAfter).toBe(60);
    else {
      expect(retryAfter).toBeLessThanOrEqual(61);
      expect(retryAfter).toBeGreaterThanOrEqual(61 - Math.ceil((Date.now() - started) / 1000));
    }
    expect(refused.body.error?.code).toBe('rate_limited');

    await logSettled(relay);
    const { items } = await listDeliveries(relay, hook.webhook.uid, { limit: 500 });
    expect(items).toHaveLength(60);
    expect(items.every((d) => d.label === 'Accepted')).toBe(true);
  });

  it('limits each webhook on its own', async () => {
    const other = await relay.createWebhook({ name: 'quiet' });
    for (let i = 0; i < 60; i++) await deliver();
    expect((await deliver()).status).toBe(429);
    expect((await deliver(other)).status).toBe(202);
  });

  it('does not count failed authentications against the delivery rate', async () => {
    for (let i = 0; i < 10; i++) {
      expect((await postDelivery(hook.ingressUrl, '{}', bearer('wrong'))).status).toBe(401);
    }
    for (let i = 1; i <= 60; i++) expect((await deliver()).status, `delivery ${i}`).toBe(202);
  });

  /**
   * The window walked with the relay's injected clock: SQLite's limits count on it. On PostgreSQL
   * they count on the database's clock, which no test can move; the shared limiter's windows are
   * tested in test/integration/postgres/shared-rate-limiter.test.ts.
   */
  if (storeKind === 'sqlite') {
    describe('walked with the relay clock', () => {
      it('counts Retry-After down as the window slides, and accepts again once a slot frees', async () => {
        for (let i = 0; i < 60; i++) await deliver();
        clock += 30_000;
        expect((await deliver()).headers.get('retry-after')).toBe('30');
        clock += 29_500;
        expect((await deliver()).headers.get('retry-after')).toBe('1');
        clock += 500;
        expect((await deliver()).status).toBe(202);
      });

      it('gives the seconds until the oldest delivery leaves the window when they were spread out', async () => {
        for (let i = 0; i < 60; i++) {
          expect((await deliver()).status).toBe(202);
          clock += 1_000;
        }
        // Sixty deliveries one second apart, the last just now: the first left 59 s ago, its slot frees in 1 s.
        clock -= 1_000;
        const refused = await deliver();
        expect(refused.status).toBe(429);
        expect(refused.headers.get('retry-after')).toBe('1');
      });
    });
  }
});
