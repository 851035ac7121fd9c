import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNodeMiddleware, Webhooks } from '@octokit/webhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getDelivery } from '../../support/deliveries.js';
import { startTestRelay, type TestRelay } from '../../support/relay.js';
import { bodyFile, deliveryIdOf, removeBodyFiles, runSend } from './support/run-send.js';

const SECRET = 'octokit-test-secret';
const PULL_REQUEST = JSON.stringify({ action: 'opened', number: 7, pull_request: { id: 1 } });

describe('hookport send --event: what the provider’s own middleware accepts', () => {
  let server: Server;
  let url: string;
  const received: Array<{ id: string; name: string; action: unknown }> = [];
  beforeAll(async () => {
    // GitHub's own library, verifying and dispatching exactly as a GitHub App server does.
    const webhooks = new Webhooks({ secret: SECRET });
    webhooks.on('pull_request.opened', ({ id, name, payload }) => {
      received.push({ id, name, action: payload.action });
    });
    const middleware = createNodeMiddleware(webhooks, { path: '/github' });
    server = createServer((req, res) => void middleware(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/github`;
  });
  afterAll(async () => {
    removeBodyFiles();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('@octokit/webhooks accepts a github send with --event and dispatches pull_request.opened', async () => {
    const body = bodyFile(PULL_REQUEST);
    const run = await runSend([
      url,
      '--body',
      body,
      '--scheme',
      'github',
      '--secret',
      SECRET,
      '--event',
      'pull_request',
      '--id',
      'gh-1',
    ]);
    expect(run).toMatchObject({ code: 0, stdout: '200 ok\n' });
    expect(received).toEqual([{ id: 'gh-1', name: 'pull_request', action: 'opened' }]);
  });

  it('without --event the same middleware refuses it, naming the header', async () => {
    const run = await runSend([
      url,
      '--body',
      bodyFile(PULL_REQUEST),
      '--scheme',
      'github',
      '--secret',
      SECRET,
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('Required headers missing: x-github-event');
  });

  it('refuses --event where the provider has no event header, or a name it never sends', async () => {
    const body = bodyFile('{}');
    const stripe = await runSend([
      url,
      '--body',
      body,
      '--scheme',
      'stripe',
      '--secret',
      'whsec_abc',
      '--event',
      'invoice.paid',
    ]);
    expect(stripe.code).toBe(2);
    expect(stripe.stderr).toContain(
      'the stripe scheme names its event in the body, not in a header',
    );
    const dotted = await runSend([
      url,
      '--body',
      body,
      '--scheme',
      'github',
      '--secret',
      SECRET,
      '--event',
      'pull_request.opened',
    ]);
    expect(dotted.code).toBe(2);
    expect(dotted.stderr).toContain(
      `GitHub names the event in X-GitHub-Event ("pull_request") and the action in the body's "action"`,
    );
    const unsigned = await runSend([url, '--body', body, '--event', 'push']);
    expect(unsigned.code).toBe(2);
    expect(unsigned.stderr).toContain('--event goes with --scheme github, shopify, gitlab');
  });
});

describe('hookport send --event to the relay', () => {
  let relay: TestRelay;
  beforeAll(async () => {
    relay = await startTestRelay();
  });
  afterEach(removeBodyFiles);
  afterAll(() => relay.stop());

  it('shopify: the topic becomes the event type, with every header Shopify’s app library requires', async () => {
    const { ingressUrl } = await relay.createWebhook({
      name: 'shop',
      authMode: 'signature',
      signatureScheme: 'shopify',
      secret: 'shpss_0123456789abcdef',
    });
    const run = await runSend([
      ingressUrl,
      '--body',
      bodyFile('{"id":1}'),
      '--scheme',
      'shopify',
      '--secret',
      'shpss_0123456789abcdef',
      '--event',
      'orders/paid',
    ]);
    const entry = await getDelivery(relay, deliveryIdOf(run));
    expect(entry.eventType).toBe('orders/paid');
    // @shopify/shopify-api's webhooks.validate() requires these five (it is not installed here).
    const names = entry.headers!.map(([name]) => name.toLowerCase());
    for (const required of [
      'x-shopify-hmac-sha256',
      'x-shopify-topic',
      'x-shopify-shop-domain',
      'x-shopify-api-version',
      'x-shopify-webhook-id',
    ])
      expect(names, required).toContain(required);
  });

  it('gitlab: X-Gitlab-Event becomes the event type; --id is the Idempotency-Key', async () => {
    const { ingressUrl } = await relay.createWebhook({
      name: 'lab',
      authMode: 'signature',
      signatureScheme: 'gitlab',
      secret: 'gitlab-token-0123456789',
    });
    const args = [
      ingressUrl,
      '--body',
      bodyFile('{"object_kind":"push"}'),
      '--scheme',
      'gitlab',
      '--secret',
      'gitlab-token-0123456789',
      '--event',
      'Push Hook',
      '--id',
      'resend-me',
    ];
    const first = await getDelivery(relay, deliveryIdOf(await runSend(args)));
    expect(first).toMatchObject({
      label: 'Accepted',
      eventType: 'Push Hook',
      identity: 'resend-me',
    });
    const again = await getDelivery(relay, deliveryIdOf(await runSend(args)));
    expect(again).toMatchObject({ label: 'Duplicate', duplicateOf: first.id });
  });
});
