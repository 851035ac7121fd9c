import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitHubStandin } from '../support/providers/github-standin.js';
import { FAST_TIMING, goPublic, storeToken } from '../support/links.js';
import { startTestRelay } from '../support/relay.js';
import { launchBrowser, openUi, screenshot, UI_DIR, type UiSession } from './support/browser.js';
import { openWebhookTab } from './support/webhooks-ui.js';

const TOKEN = 'ghp_standin_token_e2e';
const HOOK_SECRET = 'hook-secret-e2e-0123456789abcdef';

describe('Provider link in the webhook detail pane', () => {
  let browser: Browser;
  let ui: UiSession;
  let github: GitHubStandin;
  beforeAll(async () => {
    browser = await launchBrowser();
    github = await new GitHubStandin(TOKEN).start();
    const relay = await startTestRelay({ uiDir: UI_DIR, links: { timing: FAST_TIMING } });
    ui = await openUi(browser, { relay });
  });
  afterAll(async () => {
    await ui.close();
    await ui.relay.stop();
    await github.stop();
    await browser.close();
  });

  it('links to the stand-in GitHub, shows the check, and Recover now brings entries marked Recovered', async () => {
    const { relay, page } = ui;
    await storeToken(relay, 'github-token', TOKEN);
    await goPublic(relay);
    const { webhook } = await relay.createWebhook({
      name: 'github-prod',
      authMode: 'signature',
      signatureScheme: 'github',
      secret: HOOK_SECRET,
    });
    const hook = github.addHook('acme/api', 'https://old-tunnel.example.test/hook', HOOK_SECRET);

    await page.goto(`${relay.adminUrl}/#/webhooks/${webhook.uid}`);
    await openWebhookTab(page, 'Settings');
    const section = page.getByRole('region', { name: 'Provider link' });
    await section.getByRole('button', { name: 'Link to GitHub / GitLab / Stripe…' }).click();
    await section
      .getByLabel('Repository')
      .fill(`https://github.com/acme/api/settings/hooks/${hook.id}`);
    expect(await section.getByLabel('Repository').inputValue()).toBe('acme/api');
    expect(await section.getByLabel('Hook ID').inputValue()).toBe(String(hook.id));
    await section.getByLabel('Token secret').selectOption('github-token');
    await section.getByLabel('API base URL').fill(github.url);
    await section.getByRole('button', { name: 'Link', exact: true }).click();
    await expect
      .poll(() => section.getByTestId('link-check').textContent())
      .toContain(`GitHub acme/api#${hook.id} sends here · active`);
    expect(hook.config.url).toContain(`/webhooks/w/${webhook.uid}`);

    const failed = [];
    for (let n = 1; n <= 3; n++)
      failed.push(await github.send(hook, 'push', { n }, { relayAsleep: true }));
    await section.getByRole('button', { name: 'Recover now' }).click();
    await expect
      .poll(() => section.getByTestId('link-recovery').textContent(), { timeout: 10_000 })
      .toMatch(/asked GitHub for 3 failed deliveries at .*; 3 arrived/);
    await openWebhookTab(page, 'Deliveries');
    const log = page.getByRole('region', { name: 'Recent deliveries' });
    await expect
      .poll(() => log.getByText('Recovered', { exact: true }).count(), { timeout: 10_000 })
      .toBe(3);
    await screenshot(page, 'provider-link');
  });
});
