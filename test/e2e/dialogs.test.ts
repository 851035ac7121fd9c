import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openUi, useBrowserAndRelay } from './support/browser.js';
import { addWebhookButton } from './support/webhooks-ui.js';

/** What has keyboard focus: its accessible name, and whether it is inside an open dialog. */
const focused = (page: Page): Promise<{ name: string; inDialog: boolean }> =>
  page.evaluate<{ name: string; inDialog: boolean }>(`(() => {
    const el = document.activeElement;
    return {
      name: el?.getAttribute('aria-label') ?? el?.textContent?.trim() ?? '',
      inDialog: el?.closest('dialog[open]') != null,
    };
  })()`);

describe('dialogs in Chromium', () => {
  const env = useBrowserAndRelay();

  it('keeps Tab and Shift+Tab inside an open dialog', async () => {
    const ui = await openUi(env.browser, { relay: env.relay });
    try {
      const { page } = ui;
      page.setDefaultTimeout(10_000);
      await addWebhookButton(page).click();
      const dialog = page.getByRole('dialog', { name: 'Add webhook' });
      await dialog.getByRole('button', { name: 'Create' }).focus();
      await page.keyboard.press('Tab');
      await expect(focused(page)).resolves.toEqual({ name: 'Close', inDialog: true });
      await page.keyboard.press('Shift+Tab');
      await expect(focused(page)).resolves.toEqual({ name: 'Create', inDialog: true });
      // Walking all the way round never leaves the dialog either.
      for (let i = 0; i < 12; i++) {
        await page.keyboard.press('Tab');
        await expect(focused(page).then((f) => f.inDialog)).resolves.toBe(true);
      }
    } finally {
      await ui.close();
    }
  });
});
