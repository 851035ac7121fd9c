import { describe, expect, it } from 'vitest';
import { listDeliveries } from '../../support/deliveries.js';
import { bearer, postDelivery } from '../../support/relay.js';
import { clientOf, createWebhook, ingressOn, useTwoRelays } from './two-relays.js';

const SENT = 90;
const LIMIT = 60;

/**
 * PRODUCT §16: the 60/min/webhook rate is shared by the replicas, counted on the database's
 * clock. Ninety deliveries to one webhook within seconds, in pairs (one to each relay at the
 * same moment): sixty are accepted across both, thirty answered 429 with Retry-After, and the
 * shared log holds exactly the sixty.
 */
describe('the delivery rate limit across two relays', () => {
  const replicas = useTwoRelays();

  it('accepts 60 of 90 deliveries to one webhook sent through both relays, and answers the rest 429 with Retry-After', async () => {
    const { a, b } = await replicas.start();
    const hook = await createWebhook(a, { name: 'busy' });
    const urls = [a, b].map((relay) => ingressOn(relay, hook.ingressUrl));

    const answers: Array<{ relay: number; status: number; retryAfter: string | null }> = [];
    const started = Date.now();
    for (let pair = 0; pair < SENT / 2; pair++) {
      const sent = await Promise.all(
        urls.map((url, relay) =>
          postDelivery(url, JSON.stringify({ pair, relay }), bearer(hook.secret)),
        ),
      );
      sent.forEach(({ status, headers }, relay) =>
        answers.push({ relay, status, retryAfter: headers.get('retry-after') }),
      );
    }
    // All inside one window, so none of the sixty slots had freed again.
    expect(Date.now() - started).toBeLessThan(60_000);

    const accepted = answers.filter((answer) => answer.status === 202);
    const refused = answers.filter((answer) => answer.status === 429);
    // Counted by status, so that any other answer (a 503) shows in a failure.
    const byStatus: Record<number, number> = {};
    for (const { status } of answers) byStatus[status] = (byStatus[status] ?? 0) + 1;
    expect(byStatus).toEqual({ 202: LIMIT, 429: SENT - LIMIT });
    for (const { retryAfter } of refused) {
      expect(retryAfter).toMatch(/^\d+$/);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
      // The window, plus the second a replica may hold slots it reserved (shared-rate-limiter.ts).
      expect(Number(retryAfter)).toBeLessThanOrEqual(61);
    }
    // Both relays accepted and both refused: the count is one, not one per relay.
    for (const relay of [0, 1]) {
      expect(accepted.some((answer) => answer.relay === relay)).toBe(true);
      expect(refused.some((answer) => answer.relay === relay)).toBe(true);
    }

    // A refusal leaves no entry: the shared log has the sixty, whichever relay lists it.
    for (const relay of [a, b]) {
      const { items } = await listDeliveries(clientOf(relay), hook.webhook.uid, { limit: 500 });
      expect(items.map((item) => item.label)).toEqual(Array<string>(LIMIT).fill('Accepted'));
    }
  });
});
