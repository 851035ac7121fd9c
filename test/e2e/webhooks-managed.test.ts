import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sync } from '../support/definitions.js';
import { bearer, postDelivery, startTestRelay, tempDir, type TestRelay } from '../support/relay.js';
import { launchBrowser, openUi, screenshot, UI_DIR } from './support/browser.js';
import { detailPane, oneTime } from './support/webhooks-ui.js';

describe('the Webhooks page on a managed factory', () => {
  let browser: Browser;
  let relay: TestRelay;
  let dir: string;
  beforeAll(async () => {
    browser = await launchBrowser();
    relay = await startTestRelay({ uiDir: UI_DIR });
    dir = join(tempDir('hookport-defs-'), 'factory');
    mkdirSync(join(dir, 'webhooks'), { recursive: true });
    expect((await sync(relay, { dir })).status).toBe(200);
  });
  afterAll(async () => {
    await relay.stop();
    await browser.close();
  });

  it('writes a file naming an existing team secret, and sends rotation to that secret', async () => {
    const team = await relay.call('secrets.create', { name: 'ci-token' });
    const ui = await openUi(browser, { relay });
    try {
      const { page } = ui;
      page.setDefaultTimeout(10_000);
      await page.getByText('This factory is managed by the definition files in').waitFor();
      await page.getByRole('button', { name: 'Add webhook' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Add webhook' });
      await dialog.getByText('the webhook must name an existing team secret').waitFor();
      await dialog.getByLabel('Name', { exact: true }).fill('ci');
      await dialog.getByRole('button', { name: 'Create' }).click();
      await dialog.getByText('Choose a team secret, or use a new secret.').waitFor();
      await dialog.getByLabel('Team secret', { exact: true }).selectOption('ci-token');
      await dialog.getByRole('button', { name: 'Create' }).click();
      const ready = page.getByRole('dialog', { name: 'Webhook ci is ready' });
      await ready.getByText('The secret is not shown: it is an existing team secret.').waitFor();
      const url = await oneTime(page, 'ingress-url');
      await ready.getByRole('button', { name: 'Done' }).click();
      expect(existsSync(join(dir, 'webhooks', 'ci.yaml'))).toBe(true);
      expect((await postDelivery(url, '{"ok":true}', bearer(team.value))).status).toBe(202);

      const pane = detailPane(page, 'ci');
      const rotate = pane.getByRole('button', { name: 'Rotate secret' });
      await expect(rotate.isDisabled()).resolves.toBe(true);
      await expect(rotate.getAttribute('title')).resolves.toBe(
        'Defined in a file: rotate the team secret ci-token instead.',
      );
      await pane.getByText(/rotate the team secret ci-token instead/).waitFor();
      await expect(
        pane.getByRole('link', { name: 'ci-token' }).first().getAttribute('href'),
      ).resolves.toBe('#/secrets');
      await expect(pane.getByRole('button', { name: 'Edit name' }).isDisabled()).resolves.toBe(
        true,
      );
      await screenshot(page, 'webhooks-managed-detail');
    } finally {
      await ui.close();
    }
  });
});
