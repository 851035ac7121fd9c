import { describe, expect, it } from 'vitest';
import { header, startHandler } from '../integration/forward/support/handler.js';
import { verifyAsProvider } from '../integration/forward/support/verify.js';
import { createSignatureWebhook, post } from '../integration/signatures/support/relay-calls.js';
import { genuineDelivery, nowSeconds, SENDERS } from '../integration/signatures/support/senders.js';
import { openUi, screenshot, useBrowserAndRelay } from './support/browser.js';

const FLOW_MS = 60_000;
const github = SENDERS.find((s) => s.scheme === 'github')!;

/**
 * The tester's loop in the UI (PRODUCT.md §15): Send to… a handler on 127.0.0.1 that checks
 * GitHub signatures with its own code, read its answer in the timeline, then Edit and send and
 * read the handler's 4xx answer to the edited payload, marked as edited.
 */
describe('Send to… and Edit and send in Chromium', () => {
  const env = useBrowserAndRelay();

  it(
    'sends a stored delivery to a local handler and shows its answers in the timeline',
    async () => {
      const { browser, relay } = env;
      const handler = await startHandler();
      handler.answer = (request) => {
        const body = JSON.parse(request.body.toString('utf8')) as { ref?: unknown };
        return typeof body.ref === 'string'
          ? { status: 200, body: `deployed ${body.ref}` }
          : { status: 422, body: 'payload has no ref', headers: { 'x-handler': 'demo' } };
      };
      const hook = await createSignatureWebhook(relay, github);
      const genuine = genuineDelivery(github, { text: 'push' });
      const body = Buffer.from(JSON.stringify({ ref: 'refs/heads/main', after: 'abc123' }));
      const sent = await post(
        hook.ingressUrl,
        body,
        github.sign(body, github.secret, 0, genuine.id),
      );
      const deliveryId = sent.body.delivery_id!;
      const ui = await openUi(browser, { relay });
      try {
        const { page } = ui;
        page.setDefaultTimeout(10_000);
        await page.goto(`${relay.adminUrl}/#/webhooks/${hook.webhook.uid}/${deliveryId}`);
        const detail = page.getByRole('region', { name: `Delivery ${deliveryId}` });
        const timeline = detail.getByRole('region', { name: 'Sent to handlers' });
        await timeline.getByText('Not sent anywhere yet.').waitFor();

        await detail.getByRole('button', { name: 'Send to…' }).click();
        const form = detail.getByRole('form', { name: 'Send to a handler' });
        await form.getByLabel('Handler URL').fill(handler.url);
        await expect(form.getByRole('checkbox').isChecked()).resolves.toBe(true);
        await form.getByRole('button', { name: 'Send', exact: true }).click();
        await page.getByText(new RegExp(`^Sent to ${handler.url}: 200 in \\d+ ms\\.$`)).waitFor();

        const attempts = timeline.getByRole('list', { name: 'Attempts, newest first' });
        const first = attempts.getByRole('listitem').first();
        await first.getByText('200', { exact: true }).waitFor();
        await first.locator('summary').click();
        await first.getByText('deployed refs/heads/main').waitFor();
        await expect(first.textContent()).resolves.toContain('signed');
        expect(await verifyAsProvider(github, handler.received[0]!, nowSeconds())).toEqual({
          ok: true,
          why: 'verified',
        });
        expect(header(handler.received[0]!, 'X-GitHub-Delivery')).toBe(genuine.id);
        await screenshot(page, 'forward-send-to');

        // Edit and send: the handler refuses the edited payload, and the timeline says so.
        await detail.getByRole('button', { name: 'Edit and send' }).click();
        const dialog = page.getByRole('dialog', { name: `Edit and send ${deliveryId}` });
        // The URL just used is remembered and offered first.
        await expect(dialog.getByLabel('Handler URL').inputValue()).resolves.toBe(handler.url);
        const editor = dialog.getByLabel('Payload (edited)');
        await editor.fill('{"after": "abc123"');
        await dialog.getByText(/^Not valid JSON/).waitFor();
        await editor.fill('{"after": "abc123", "forced": true}');
        await dialog.getByText(/^Valid JSON\./).waitFor();
        await screenshot(page, 'forward-edit-and-send');
        await dialog.getByRole('button', { name: 'Send edited' }).click();
        await dialog.waitFor({ state: 'detached' });
        await page.getByText(new RegExp(`^Edited payload sent to ${handler.url}: 422`)).waitFor();

        const newest = attempts.getByRole('listitem').first();
        await newest.getByText('422', { exact: true }).waitFor();
        await newest.getByText('edited', { exact: true }).waitFor();
        await newest.locator('summary').click();
        await newest.getByText('payload has no ref').waitFor();
        await newest.getByText('{"after": "abc123", "forced": true}').waitFor();
        await expect(newest.textContent()).resolves.toContain('x-handler');
        await expect(attempts.getByRole('listitem').count()).resolves.toBe(2);
        const edited = handler.received[1]!;
        expect(edited.body.toString()).toBe('{"after": "abc123", "forced": true}');
        expect(await verifyAsProvider(github, edited, nowSeconds())).toMatchObject({ ok: true });
        await screenshot(page, 'forward-timeline');
      } finally {
        await ui.close();
        await handler.stop();
      }
    },
    FLOW_MS,
  );
});
