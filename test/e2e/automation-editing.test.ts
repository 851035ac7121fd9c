import { describe, expect, it } from 'vitest';
import { openUi, useBrowserAndRelay } from './support/browser.js';

describe('editing an automation in Chromium', () => {
  const env = useBrowserAndRelay();

  it('asks before unsaved edits are lost, and flags $gt in a filter', async () => {
    const ui = await openUi(env.browser, { relay: env.relay });
    const { page, relay } = ui;
    page.setDefaultTimeout(15_000);
    try {
      await page.goto(`${relay.adminUrl}/#/automations/new`);
      await page.getByLabel('Name', { exact: true }).fill('nightly-report');
      const filter = page.getByLabel('Payload filter').first();
      if ((await filter.count()) === 0)
        await page.getByRole('button', { name: 'Add trigger' }).click();
      await page.getByLabel('Payload filter').first().fill('{"additions": {"$gt": 100}}');
      await expect
        .poll(() => page.locator('.filter-warning').first().textContent())
        .toBe(
          'payload.additions.$gt: `$gt` is not an operator here; the operators are in, not_in, exists',
        );

      const asked: string[] = [];
      // Stay first: the edits are still there.
      page.once('dialog', (dialog) => {
        asked.push(dialog.message());
        void dialog.dismiss();
      });
      await page
        .getByRole('navigation', { name: 'Sections' })
        .getByRole('link', { name: 'Webhooks' })
        .click();
      await expect.poll(() => asked.length).toBe(1);
      expect(asked[0]).toContain('unsaved changes');
      expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('nightly-report');
      expect(new URL(page.url()).hash).toBe('#/automations/new');

      // Then leave: the page changes.
      page.once('dialog', (dialog) => void dialog.accept());
      await page
        .getByRole('navigation', { name: 'Sections' })
        .getByRole('link', { name: 'Webhooks' })
        .click();
      await expect.poll(() => new URL(page.url()).hash).toBe('#/webhooks');
    } finally {
      await ui.close();
    }
  }, 90_000);
});
