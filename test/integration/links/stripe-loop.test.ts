import { afterEach, describe, expect, it } from 'vitest';
import { listRuns } from '../../support/automations.js';
import { StripeStandin } from '../../support/providers/stripe-standin.js';
import { deliveriesOf, FAST_TIMING } from '../../support/links.js';
import { startLinkedWebhook } from '../../support/linked-webhook.js';

/** No provider silence is tested here: a loaded machine must not turn a slow answer into one. */
const PATIENT = { ...FAST_TIMING, requestTimeoutMs: 10_000 };
const KEY = 'sk_test_standin_key_1234567890';
const SIGNING_SECRET = 'whsec_standin_signing_secret_0123456789';

describe('a webhook linked to a Stripe webhook endpoint', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function setUp() {
    const stripe = await new StripeStandin(KEY).start();
    cleanups.push(() => stripe.stop());
    const linked = await startLinkedWebhook(cleanups, {
      name: 'payments',
      scheme: 'stripe',
      secret: SIGNING_SECRET,
      tokenSecretName: 'stripe-key',
      token: KEY,
      timing: PATIENT,
    });
    const endpoint = stripe.addEndpoint('http://old-tunnel.example.test:1/stripe', SIGNING_SECRET);
    const link = (target = endpoint.id) =>
      linked.link({ kind: 'stripe', target, apiBaseUrl: stripe.url });
    return { ...linked, stripe, endpoint, link };
  }

  it('recovers what failed while the URL was stale and the relay stopped, once, marked recovered', async () => {
    const { stripe, endpoint, webhook, publicUrl, relay, restart, link } = await setUp();
    const stale = await stripe.emit('charge.succeeded', { n: 1 });
    expect(stale.delivered.get(endpoint.id)).toBe(false);

    const linked = await link();
    expect(linked.status).toBe(200);
    expect(endpoint.url).toBe(`${publicUrl}/webhooks/w/${webhook.uid}`);
    expect(
      stripe.server.requestsTo('POST', /^\/v1\/webhook_endpoints\//).map((r) => r.body),
    ).toEqual([{ url: endpoint.url }]);
    expect(linked.body.check).toMatchObject({ ok: true, pointsHere: true, active: true });

    // Another endpoint that keeps failing: Stripe lists these events as not delivered, though this
    // relay has them. They are skipped by identity, never asked for.
    stripe.addEndpoint('http://elsewhere.example.test:1/down', 'whsec_other');
    const live = await stripe.emit('charge.succeeded', { n: 2 });
    expect(live.delivered.get(endpoint.id)).toBe(true);

    await relay().stop();
    const whileStopped = [];
    for (let n = 3; n <= 5; n++) whileStopped.push(await stripe.emit('invoice.paid', { n }));

    const restarted = await restart();
    await restarted.core.links.idle();
    await stripe.server.idle();

    const wanted = [stale, ...whileStopped].map((e) => e.id);
    expect([...stripe.retryRequests].sort()).toEqual([...wanted].sort());
    expect(stripe.retryRequests).not.toContain(live.id);
    expect(
      stripe.server
        .requestsTo('POST', /\/retry$/)
        .every((r) => (r.body as Record<string, string>).for_webhook_endpoint === endpoint.id),
    ).toBe(true);

    const entries = await deliveriesOf(restarted, webhook.uid);
    const accepted = entries.filter((d) => d.label === 'Accepted');
    expect(accepted).toHaveLength(5);
    // The identity is the event's id, though a resent body differs (its pending_webhooks).
    expect(accepted.map((d) => d.identity).sort()).toEqual(
      [stale, live, ...whileStopped].map((e) => e.id).sort(),
    );
    expect(
      accepted
        .filter((d) => d.recovered)
        .map((d) => d.identity)
        .sort(),
    ).toEqual([...wanted].sort());
    const runs = (await listRuns(restarted, `?webhook=${webhook.uid}`)).items;
    for (const entry of accepted) {
      expect(runs.filter((r) => r.deliveryId === entry.id)).toHaveLength(1);
    }
    const shown = await restarted.call('links.get', { uid: webhook.uid });
    expect(shown?.recovery).toMatchObject({
      asked: 4,
      redelivered: 4,
      alreadyHere: 1,
      arrived: 4,
      errors: [],
    });

    const again = await restarted.call('links.recover', { uid: webhook.uid });
    expect(again).toMatchObject({ recovery: { asked: 0, errors: [] } });
    const third = await restart();
    await third.core.links.idle();
    expect(stripe.retryRequests).toHaveLength(4);
  });

  it('enables an endpoint Stripe disabled, and says why a wrong key cannot link', async () => {
    const { endpoint, link, stripe } = await setUp();
    endpoint.status = 'disabled';
    const linked = await link();
    expect(linked.status).toBe(200);
    expect(endpoint.status).toBe('enabled');
    expect(linked.body.check).toMatchObject({ ok: true, active: true });

    const missing = await link('we_doesnotexist');
    expect(missing.status).toBe(400);
    expect(missing.body.error?.message).toContain(
      'Stripe answered 404 for Stripe webhook endpoint we_doesnotexist (reading the endpoint)',
    );
    expect(stripe.retryRequests).toEqual([]);
  });
});
