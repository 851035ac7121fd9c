import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { header, LocalHandler } from '../integration/forward/support/handler.js';
import { createSignatureWebhook, post } from '../integration/signatures/support/relay-calls.js';
import { genuineDelivery, SENDERS } from '../integration/signatures/support/senders.js';
import { openUi, screenshot, useBrowserAndRelay } from './support/browser.js';

const FLOW_MS = 60_000;
const stripe = SENDERS.find((s) => s.scheme === 'stripe')!;

/**
 * Issue 24: Send to… a handler reached by this machine's host name (not a loopback address, so
 * the relay treats it as another host) is refused with the relay's sentence, and then offers to
 * allow remote signing; allowed, it goes out signed.
 */
describe('Send to… a handler that is not on loopback, in Chromium', () => {
  const env = useBrowserAndRelay();

  it(
    "shows the refusal, offers 'Allow signing…', and sends signed once it is checked",
    async () => {
      const { browser, relay } = env;
      const { address } = await lookup(hostname());
      const handler = await new LocalHandler().start(0, address);
      const remoteUrl = `http://${hostname()}:${handler.port}/webhooks`;
      const hook = await createSignatureWebhook(relay, stripe);
      const genuine = genuineDelivery(stripe);
      const deliveryId = (await post(hook.ingressUrl, genuine.body, genuine.headers)).body
        .delivery_id!;
      const ui = await openUi(browser, { relay });
      try {
        const { page } = ui;
        page.setDefaultTimeout(10_000);
        await page.goto(`${relay.adminUrl}/#/webhooks/${hook.webhook.uid}/${deliveryId}`);
        const detail = page.getByRole('region', { name: `Delivery ${deliveryId}` });
        await detail.getByRole('button', { name: 'Send to…' }).click();
        const form = detail.getByRole('form', { name: 'Send to a handler' });
        await form.getByLabel('Handler URL').fill(remoteUrl);
        await expect(form.getByRole('checkbox').count()).resolves.toBe(1);
        await form.getByRole('button', { name: 'Send', exact: true }).click();

        await form
          .getByRole('alert')
          .getByText(`Signing for ${hostname()}:${handler.port} is refused`, { exact: false })
          .waitFor();
        expect(handler.received).toHaveLength(0);
        const allow = form.getByRole('checkbox', {
          name: /^Allow signing for a handler that is not on this machine/,
        });
        await screenshot(page, 'forward-remote-signing-refused');
        await allow.check();
        await form.getByRole('button', { name: 'Send', exact: true }).click();
        await page.getByText(new RegExp(`^Sent to ${remoteUrl}: 200 in \\d+ ms\\.$`)).waitFor();
        expect(header(handler.received[0]!, 'Stripe-Signature')).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      } finally {
        await ui.close();
        await handler.stop();
      }
    },
    FLOW_MS,
  );
});
