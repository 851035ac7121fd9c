import { describe, expect, it } from 'vitest';
import { createAutomation, webhookTrigger } from '../support/automations.js';
import { bearer, postDelivery } from '../support/relay.js';
import { send } from './support/actions.js';
import { openUi, screenshot, useBrowser } from './support/browser.js';
import { deliveryList, recentDeliveries } from './support/webhooks-ui.js';

describe('Replay shown… in Chromium', () => {
  const env = useBrowser();

  it('replays the Accepted deliveries the list shows, after saying how many', async () => {
    const ui = await openUi(env.browser);
    try {
      const { page, relay } = ui;
      page.setDefaultTimeout(10_000);
      const hook = await relay.createWebhook({ name: 'orders' });
      for (const n of [1, 2, 3]) await send(hook, { order: n });
      expect((await postDelivery(hook.ingressUrl, '{}', bearer('wrong'))).status).toBe(401);
      await createAutomation(relay, {
        name: 'fulfil',
        triggers: [webhookTrigger([hook.webhook.uid])],
      });

      await page.goto(`${relay.adminUrl}/#/webhooks/${hook.webhook.uid}`);
      const rows = deliveryList(page).getByRole('listitem');
      await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(4);
      await recentDeliveries(page).getByRole('button', { name: 'Replay shown…' }).click();
      const confirm = page.getByRole('dialog', { name: 'Replay 3 deliveries?' });
      const text = await confirm.textContent();
      expect(text).toContain('3 Accepted deliveries go through today’s automations again');
      expect(text).toContain('1 shown entry is not Accepted');
      await screenshot(page, 'replay-shown');
      await confirm.getByRole('button', { name: 'Replay 3' }).click();
      await page.getByText('Replayed 3 deliveries: 3 runs queued.').waitFor();
      await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(7);
    } finally {
      await ui.close();
    }
  });
});
