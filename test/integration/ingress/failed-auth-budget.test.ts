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
 * PRODUCT §3 step 5: 20 failed authentications per 5 minutes per (webhook, client address);
 * past that, failures get 429 + Retry-After and no log entry, while the valid credential is
 * never blocked. `trustProxy` lets the test speak from several client addresses.
 */
describe.each(storeKinds)('the failed-authentication budget (%s)', (storeKind) => {
  let relay: TestRelay;
  let clock: number;
  let hook: CreatedWebhook;
  beforeEach(async () => {
    clock = Date.parse('2026-03-01T12:00:00Z');
    relay = await startTestRelay({ ...storeConfig(storeKind), now: () => clock, trustProxy: true });
    hook = await relay.createWebhook({ name: 'guarded' });
  });
  afterEach(() => relay.stop());

  const fail = (from = '203.0.113.7', target = hook) =>
    postDelivery(target.ingressUrl, '{"guess":true}', {
      ...bearer('guessed-token'),
      'x-forwarded-for': `10.0.0.1, ${from}`,
    });

  async function spendBudget(): Promise<void> {
    for (let i = 1; i <= 20; i++) expect((await fail()).status, `failure ${i}`).toBe(401);
  }

  it('logs 20 failures, then answers the 21st with 429, Retry-After and no log entry', async () => {
    const started = Date.now();
    await spendBudget();
    const refused = await fail();
    expect(refused.status).toBe(429);
    // Seconds until the first failure's slot frees: 300 less the time the 20 failures took. On
    // PostgreSQL a slot counts a second longer: the hold of the replica that reserved it.
    const longest = storeKind === 'sqlite' ? 300 : 301;
    const spentSeconds = Math.ceil((Date.now() - started) / 1000);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeLessThanOrEqual(longest);
    expect(retryAfter).toBeGreaterThanOrEqual(longest - spentSeconds);
    expect(refused.body.error?.code).toBe('rate_limited');

    await logSettled(relay);
    const { items } = await listDeliveries(relay, hook.webhook.uid, { limit: 500 });
    expect(items).toHaveLength(20);
    expect(new Set(items.map((d) => d.label))).toEqual(new Set(['Rejected (auth)']));
    expect(new Set(items.map((d) => d.clientAddress))).toEqual(new Set(['203.0.113.7']));
  });

  it('still accepts a request with the valid credential from the same address', async () => {
    await spendBudget();
    expect((await fail()).status).toBe(429);
    const valid = await postDelivery(hook.ingressUrl, '{"real":true}', {
      ...bearer(hook.secret),
      'x-forwarded-for': '203.0.113.7',
    });
    expect(valid.status).toBe(202);
  });

  it('keeps a budget per client address and per webhook', async () => {
    await spendBudget();
    expect((await fail('203.0.113.7')).status).toBe(429);
    expect((await fail('203.0.113.8')).status).toBe(401);
    const other = await relay.createWebhook({ name: 'neighbour' });
    expect((await fail('203.0.113.7', other)).status).toBe(401);
  });

  /**
   * The window walked with the relay's injected clock: SQLite's budget counts on it. On PostgreSQL
   * it counts on the database's clock, which no test can move (see
   * test/integration/postgres/shared-rate-limiter.test.ts for the shared windows).
   */
  if (storeKind === 'sqlite') {
    describe('walked with the relay clock', () => {
      it('refills as the five-minute window slides', async () => {
        await spendBudget();
        clock += 4 * 60_000;
        const refused = await fail();
        expect(refused.status).toBe(429);
        expect(refused.headers.get('retry-after')).toBe('60');
        clock += 60_000;
        expect((await fail()).status).toBe(401);
      });
    });
  }
});
