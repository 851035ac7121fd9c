import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitLabStandin } from '../../support/providers/gitlab-standin.js';
import { StripeStandin } from '../../support/providers/stripe-standin.js';
import { FAST_TIMING, goPublic, linkedRelay, putLink, storeToken } from '../../support/links.js';
import type { TestRelay } from '../../support/relay.js';

const GL_TOKEN = 'glpat-errors-token-1234567890';
const STRIPE_KEY = 'sk_test_errors_key_1234567890';

/** Provider answers the relay must wait out, retry, or report (the stand-ins force them). */
describe('GitLab and Stripe answers: rate limits, 5xx, silence, refused keys', () => {
  let relay: TestRelay;
  let gitlab: GitLabStandin;
  let stripe: StripeStandin;
  let glUid: string;
  let stripeUid: string;
  beforeAll(async () => {
    gitlab = await new GitLabStandin(GL_TOKEN).start();
    stripe = await new StripeStandin(STRIPE_KEY).start();
    // Long enough that a loaded machine's slow answer is not silence, short enough to wait out.
    relay = await linkedRelay({ links: { timing: { ...FAST_TIMING, requestTimeoutMs: 1500 } } });
    await goPublic(relay);
    await storeToken(relay, 'gl-api', GL_TOKEN);
    await storeToken(relay, 'stripe-key', STRIPE_KEY);
    await storeToken(relay, 'stripe-wrong', 'sk_test_not_the_key_000000');
    glUid = (
      await relay.createWebhook({
        name: 'gl',
        authMode: 'signature',
        signatureScheme: 'gitlab',
        secret: 'gitlab-hook-token-errors-0123456',
      })
    ).webhook.uid;
    stripeUid = (
      await relay.createWebhook({
        name: 'payments',
        authMode: 'signature',
        signatureScheme: 'stripe',
        secret: 'whsec_errors_signing_secret_0123',
      })
    ).webhook.uid;
  });
  afterAll(async () => {
    await relay.stop();
    await gitlab.stop();
    await stripe.stop();
  });
  const messageOf = (body: unknown) => (body as { error: { message: string } }).error.message;

  it('GitLab: a 429 waits as Retry-After asks, a 5xx is retried, then the link is saved', async () => {
    const hook = gitlab.addHook('acme/api', 'https://old.example.test/hook', 't0ken-gitlab-1234');
    const hookPath = new RegExp(`/hooks/${hook.id}$`);
    gitlab.server.inject(hookPath, {
      status: 429,
      headers: { 'retry-after': '2' },
      body: { message: '429 Too Many Requests' },
    });
    gitlab.server.inject(hookPath, { status: 503, body: { message: '503' } });
    const linked = await putLink(relay, glUid, {
      kind: 'gitlab',
      target: `acme%2Fapi#${hook.id}`,
      tokenSecretName: 'gl-api',
      apiBaseUrl: gitlab.apiBaseUrl,
    });
    expect(linked.status).toBe(200);
    expect(linked.body.check).toMatchObject({ ok: true });
    // The 429, the 503, then the answer: waited and retried, not given up.
    expect(gitlab.server.requestsTo('GET', hookPath).length).toBeGreaterThanOrEqual(3);
  });

  it('GitLab: a hook events list that never answers is bounded and reported', async () => {
    gitlab.server.inject(/\/events$/, 'hang', 3);
    const recovered = await relay.call('links.recover', { uid: glUid });
    const errors = recovered.recovery?.errors ?? [];
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      /^GitLab did not answer within 1\.5 s for GitLab hook \d+ on acme\/api \(listing the hook's events\); tried 3 times/,
    );
  });

  it('Stripe: a refused key is said as such, and the link is not saved', async () => {
    const endpoint = stripe.addEndpoint('https://old.example.test/stripe', 'whsec_x');
    const refused = await putLink(relay, stripeUid, {
      kind: 'stripe',
      target: endpoint.id,
      tokenSecretName: 'stripe-wrong',
      apiBaseUrl: stripe.url,
    });
    expect(refused.status).toBe(400);
    expect(messageOf(refused.body)).toBe(
      `Stripe answered 401 for Stripe webhook endpoint ${endpoint.id} (reading the endpoint): the token was refused; store a valid token in the link's team secret.`,
    );
    expect(await relay.call('links.get', { uid: stripeUid })).toBeNull();
  });

  it('Stripe: a 429 waits and goes on; a retry Stripe refuses is counted failed, asked again later', async () => {
    const endpoint = stripe.addEndpoint(
      'https://old.example.test/stripe',
      'whsec_errors_signing_secret_0123',
    );
    stripe.server.inject(/^\/v1\/webhook_endpoints\//, {
      status: 429,
      headers: { 'retry-after': '1' },
      body: { error: { type: 'rate_limit_error', message: 'Too many requests' } },
    });
    const linked = await putLink(relay, stripeUid, {
      kind: 'stripe',
      target: endpoint.id,
      tokenSecretName: 'stripe-key',
      apiBaseUrl: stripe.url,
    });
    expect(linked.status).toBe(200);
    expect(endpoint.url).toContain(`/webhooks/w/${stripeUid}`);

    // Sent while the endpoint pointed elsewhere: not delivered.
    endpoint.url = 'http://gone.example.test:1/stripe';
    const event = await stripe.emit('invoice.paid', { n: 1 });
    stripe.server.inject(/\/retry$/, {
      status: 400,
      body: { error: { type: 'invalid_request_error', message: 'This event cannot be retried.' } },
    });
    const first = await relay.call('links.recover', { uid: stripeUid });
    expect(first).toMatchObject({ recovery: { asked: 1, failed: 1 } });
    expect(first.recovery?.errors[0]).toContain(
      `Stripe answered 400 for Stripe webhook endpoint ${endpoint.id} (resending event ${event.id})`,
    );
    await relay.core.links.keepPointed(stripeUid);
    const second = await relay.call('links.recover', { uid: stripeUid });
    await stripe.server.idle();
    expect(second).toMatchObject({ recovery: { asked: 1, redelivered: 1, failed: 0 } });
    expect(event.delivered.get(endpoint.id)).toBe(true);
  });

  it('GitLab: with keep pointed off, a disabled hook is reported with the fix, and left as it is', async () => {
    const hook = gitlab.addHook('acme/api', 'https://old.example.test/hook', 't0ken-gitlab-1234');
    hook.alertStatus = 'disabled';
    const linked = await putLink(relay, glUid, {
      kind: 'gitlab',
      target: `acme/api#${hook.id}`,
      tokenSecretName: 'gl-api',
      apiBaseUrl: gitlab.apiBaseUrl,
      keepPointed: false,
    });
    expect(linked.status).toBe(200);
    expect(linked.body.check?.problems).toContain(
      `GitLab disabled GitLab hook ${hook.id} on acme/api after failed deliveries; enable it in GitLab's hook settings, or turn on keep pointed.`,
    );
    await relay.call('links.check', { uid: glUid });
    expect(hook).toMatchObject({ alertStatus: 'disabled', url: 'https://old.example.test/hook' });
  });
});
