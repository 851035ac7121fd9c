import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from '../support/relay.js';
import { launchBrowser, openUi, screenshot, UI_DIR } from './support/browser.js';

const VIEW_REASON = 'Your token has the "view" role';

async function open(page: Page, section: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Sections' })
    .getByRole('link', { name: section })
    .click();
  await page.getByRole('heading', { name: section, level: 1 }).waitFor();
}

describe('a view token in Chromium', () => {
  let browser: Browser;
  let relay: TestRelay;
  let viewToken: string;
  beforeAll(async () => {
    browser = await launchBrowser();
    relay = await startTestRelay({ uiDir: UI_DIR });
    const minted = await relay.api<{ value: string }>('POST', '/api/tokens', {
      name: 'viewer',
      role: 'view',
    });
    viewToken = minted.body.value;
    await relay.createWebhook({ name: 'orders' });
  });
  afterAll(async () => {
    await browser.close();
    await relay.stop();
  });

  it('sees every page read-only, with the reason shown', async () => {
    const ui = await openUi(browser, { relay, token: viewToken });
    try {
      const { page } = ui;
      const status = page.getByRole('contentinfo', { name: 'Relay status' });
      await status.getByText('View only').waitFor();

      // The pages other people build: each opens for a view user (their own tests cover them).
      const nav = page.getByRole('navigation', { name: 'Sections' });
      for (const name of ['Webhooks', 'Automations', 'Runs']) {
        await nav.getByRole('link', { name }).click();
        await page.locator(`nav a[aria-current="page"]`, { hasText: name }).waitFor();
      }

      await open(page, 'Secrets');
      const row = page.getByRole('row', { name: /webhook-orders/ });
      await row.getByRole('link', { name: 'orders' }).waitFor();
      await expect(page.getByRole('button', { name: 'Create secret' }).isDisabled()).resolves.toBe(
        true,
      );
      await expect(
        row.getByRole('button', { name: 'Rotate webhook-orders' }).isDisabled(),
      ).resolves.toBe(true);
      await page.getByRole('main').getByText(VIEW_REASON).waitFor();
      await expect(
        page.getByRole('button', { name: 'Create secret' }).getAttribute('title'),
      ).resolves.toContain(VIEW_REASON);
      await screenshot(page, 'view-role-secrets');

      await open(page, 'Settings');
      await page.getByRole('main').getByText(VIEW_REASON).first().waitFor();
      const publicUrl = page.getByRole('region', { name: 'Public base URL' });
      await expect(
        publicUrl.getByLabel('Public base URL', { exact: true }).isDisabled(),
      ).resolves.toBe(true);
      for (const button of ['Save public base URL', 'Save retention', 'Save run executor']) {
        await expect(page.getByRole('button', { name: button }).isDisabled()).resolves.toBe(true);
      }
      const tokens = page.getByRole('region', { name: 'Tokens' });
      await expect(tokens.textContent()).resolves.toContain('Tokens need the "manage" role');
      await expect(tokens.getByRole('button').count()).resolves.toBe(0);
      const definitions = page.getByRole('region', { name: 'Definitions' });
      await expect(definitions.getByRole('button', { name: 'Apply…' }).isDisabled()).resolves.toBe(
        true,
      );
      await screenshot(page, 'view-role-settings');

      // The API agrees: the view token cannot write what the page does not offer.
      const refused = await relay.api(
        'POST',
        '/api/secrets',
        { name: 'nope' },
        { token: viewToken },
      );
      expect(refused.status).toBe(403);
    } finally {
      await ui.close();
    }
  });
});
