import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openUi, screenshot, useBrowserAndRelay } from './support/browser.js';
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

  for (const viewport of [
    { width: 1400, height: 900 },
    { width: 1024, height: 768 },
  ]) {
    it(`keeps the title and Create/Cancel in view at ${viewport.width}×${viewport.height}`, async () => {
      const ui = await openUi(env.browser, { relay: env.relay, viewport });
      try {
        const { page } = ui;
        page.setDefaultTimeout(10_000);
        await addWebhookButton(page).click();
        const dialog = page.getByRole('dialog', { name: 'Add webhook' });
        await dialog.getByRole('radio', { name: /Provider signature/ }).check();
        await dialog.getByLabel('Signing secret', { exact: true }).waitFor();
        // The form is taller than the window: it scrolls, the title and the actions stay.
        for (const control of [
          dialog.getByRole('heading', { name: 'Add webhook' }),
          dialog.getByRole('button', { name: 'Cancel' }),
          dialog.getByRole('button', { name: 'Create' }),
        ]) {
          const box = await control.boundingBox();
          expect(box).not.toBeNull();
          expect(box!.y).toBeGreaterThanOrEqual(0);
          expect(box!.y + box!.height).toBeLessThanOrEqual(viewport.height);
        }
        await screenshot(page, `dialog-add-signature-${viewport.width}`);
        // Scrolled to its end, the last field is not hidden under the actions.
        await dialog.getByLabel('Delivery ID header (optional)').focus();
        const field = await dialog.getByLabel('Delivery ID header (optional)').boundingBox();
        const create = await dialog.getByRole('button', { name: 'Create' }).boundingBox();
        expect(field!.y + field!.height).toBeLessThanOrEqual(create!.y);
        await screenshot(page, `dialog-add-signature-${viewport.width}-end`);
      } finally {
        await ui.close();
      }
    });
  }
});
