import { describe, expect, it } from 'vitest';
import { axeProblems } from './support/axe.js';
import { openUi, useBrowserAndRelay } from './support/browser.js';
import { cutOffParts } from './support/layout.js';

const LOOKS = [
  { viewport: { width: 1024, height: 768 }, scheme: 'dark' },
  { viewport: { width: 1440, height: 900 }, scheme: 'light' },
] as const;

describe('editing an automation in Chromium', () => {
  const env = useBrowserAndRelay();

  it.each(LOOKS)(
    'asks before unsaved edits are lost, and flags an operator look-alike in a filter, at $viewport.width px, $scheme',
    async ({ viewport, scheme }) => {
      const ui = await openUi(env.browser, { relay: env.relay, viewport });
      const { page, relay } = ui;
      page.setDefaultTimeout(15_000);
      try {
        await page.emulateMedia({ colorScheme: scheme });
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
        await expect(cutOffParts(page)).resolves.toEqual([]);
        await expect(axeProblems(page, 'the editor with a filter warning')).resolves.toEqual([]);

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
    },
    90_000,
  );
});
