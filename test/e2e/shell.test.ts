import { describe, expect, it } from 'vitest';
import { startTestRelay } from '../support/relay.js';
import { useBrowser, openUi, screenshot, UI_DIR } from './support/browser.js';

describe('the UI shell in Chromium', () => {
  const env = useBrowser();

  it('opens from the login link with every section and the status line', async () => {
    const ui = await openUi(env.browser);
    try {
      const { page, relay } = ui;
      const nav = page.getByRole('navigation', { name: 'Sections' });
      for (const name of ['Webhooks', 'Automations', 'Runs', 'Secrets', 'Settings']) {
        await expect(nav.getByRole('link', { name }).isVisible()).resolves.toBe(true);
      }
      const status = page.getByRole('contentinfo', { name: 'Relay status' });
      await expect(status.textContent()).resolves.toContain(relay.ingressUrl);
      await expect(status.textContent()).resolves.toContain('encrypted file');
      await screenshot(page, 'shell');
    } finally {
      await ui.close();
    }
  });

  it('asks for the admin token without a session, refuses a wrong one, and signs in with the right one', async () => {
    const relay = await startTestRelay({ uiDir: UI_DIR });
    const context = await env.browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(relay.adminUrl);
      const field = page.getByLabel('Token', { exact: true });
      await field.fill('hpa_wrong');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByRole('alert').textContent()).resolves.toContain(
        'That admin token is not valid',
      );
      await field.fill(relay.adminToken);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('navigation', { name: 'Sections' }).waitFor();
      const cookies = await context.cookies();
      expect(cookies.find((c) => c.name === 'hookport_session')).toMatchObject({
        httpOnly: true,
        sameSite: 'Strict',
      });
    } finally {
      await context.close();
      await relay.stop();
    }
  });
});
