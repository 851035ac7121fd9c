import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitLabStandin } from '../support/providers/gitlab-standin.js';
import { StripeStandin } from '../support/providers/stripe-standin.js';
import { FAST_TIMING, goPublic, storeToken } from '../support/links.js';
import { startTestRelay } from '../support/relay.js';
import { launchBrowser, openUi, screenshot, UI_DIR, type UiSession } from './support/browser.js';
import { openWebhookTab } from './support/webhooks-ui.js';

const GITLAB_TOKEN = 'glpat-standin-token-e2e-123456';
const GITLAB_HOOK_TOKEN = 'gitlab-hook-token-e2e-0123456789';
const STRIPE_KEY = 'sk_test_standin_key_e2e_12345';
const STRIPE_SECRET = 'whsec_standin_signing_secret_e2e_0123';

/** The GitLab and Stripe link forms, their checks and recoveries, as an operator uses them. */
describe('Provider link to GitLab and Stripe in the webhook detail pane', () => {
  let browser: Browser;
  let ui: UiSession;
  let gitlab: GitLabStandin;
  let stripe: StripeStandin;
  beforeAll(async () => {
    browser = await launchBrowser();
    gitlab = await new GitLabStandin(GITLAB_TOKEN).start();
    stripe = await new StripeStandin(STRIPE_KEY).start();
    // Patient: a loaded machine's slow stand-in answer must not read as silence.
    const relay = await startTestRelay({
      uiDir: UI_DIR,
      links: { timing: { ...FAST_TIMING, requestTimeoutMs: 10_000 } },
    });
    ui = await openUi(browser, { relay });
    await goPublic(relay);
  });
  afterAll(async () => {
    await ui.close();
    await ui.relay.stop();
    await gitlab.stop();
    await stripe.stop();
    await browser.close();
  });

  async function openLinkSection(page: Page, uid: string): Promise<Locator> {
    await page.goto(`${ui.relay.adminUrl}/#/webhooks/${uid}`);
    await openWebhookTab(page, 'Settings');
    const section = page.getByRole('region', { name: 'Provider link' });
    await section.getByRole('button', { name: 'Link to GitHub / GitLab / Stripe…' }).click();
    return section;
  }

  const recoveredCount = async (page: Page) => {
    await openWebhookTab(page, 'Deliveries');
    const log = page.getByRole('region', { name: 'Recent deliveries' });
    return () => log.getByText('Recovered', { exact: true }).count();
  };

  it('GitLab: a pasted hook page and token link it, enable the disabled hook, show a refused token, and recover', async () => {
    const { relay, page } = ui;
    const { webhook } = await relay.createWebhook({
      name: 'builds',
      authMode: 'signature',
      signatureScheme: 'gitlab',
      secret: GITLAB_HOOK_TOKEN,
    });
    const hook = gitlab.addHook(
      'acme/api',
      'http://old-tunnel.example.test:1/hook',
      GITLAB_HOOK_TOKEN,
    );
    // Four events to the stale URL: GitLab disables the hook for a while.
    for (let n = 1; n <= 4; n++) await gitlab.send(hook, 'Push Hook', { object_kind: 'push', n });
    expect(hook.alertStatus).toBe('temporarily_disabled');

    const section = await openLinkSection(page, webhook.uid);
    // The webhook checks GitLab's signature: the form starts at GitLab, with GitLab's fields.
    expect(await section.getByLabel('Provider', { exact: true }).inputValue()).toBe('gitlab');
    await section
      .getByLabel('Project')
      .fill(`https://gitlab.example.test/acme/api/-/hooks/${hook.id}/edit`);
    expect(await section.getByLabel('Project').inputValue()).toBe('acme/api');
    expect(await section.getByLabel('Hook ID').inputValue()).toBe(String(hook.id));
    // No team secret yet: the picker asks for the token itself, kept as a new team secret.
    expect(await section.getByLabel('Token secret').inputValue()).not.toBe('');
    await expect
      .poll(() => section.getByLabel('Token secret').locator('option').allTextContents())
      .toContain('webhook-builds (signs builds)');
    await section.getByLabel('Token', { exact: true }).fill(GITLAB_TOKEN);
    await section.getByLabel('API base URL').fill(gitlab.apiBaseUrl);
    await section.getByRole('button', { name: 'Link', exact: true }).click();
    await section.getByTestId('link-check').waitFor();
    // GitLab enables a hook by a delivery it answers: the resend lands after the link's own check.
    await gitlab.server.idle();
    await section.getByRole('button', { name: 'Check now' }).click();
    await expect
      .poll(() => section.getByTestId('link-check').textContent())
      .toContain(`GitLab acme/api#${hook.id} sends here · active`);
    expect(hook.url).toContain(`/webhooks/w/${webhook.uid}`);
    expect(hook.alertStatus).toBe('executable');
    const secrets = await relay.call('secrets.list', {});
    expect(secrets.items.map((s) => s.name)).toContain('gitlab-token');

    // The token is revoked on GitLab: Check now shows GitLab's answer and the fix.
    gitlab.server.inject(
      new RegExp(`/hooks/${hook.id}$`),
      { status: 401, body: { message: '401 Unauthorized' } },
      2,
    );
    await section.getByRole('button', { name: 'Check now' }).click();
    const problems = section.getByRole('list', { name: 'Link problems' });
    await expect
      .poll(() => problems.textContent())
      .toContain(
        `GitLab answered 401 for GitLab hook ${hook.id} on acme/api (reading the hook): the token was refused; store a valid token in the link's team secret.`,
      );
    await screenshot(page, 'provider-link-gitlab-problem');
    await section.getByRole('button', { name: 'Check now' }).click();
    await expect.poll(() => problems.count()).toBe(0);

    // The three failed events left (the fourth enabled the hook) come back on Recover now.
    await section.getByRole('button', { name: 'Recover now' }).click();
    await expect
      .poll(() => section.getByTestId('link-recovery').textContent(), { timeout: 10_000 })
      .toMatch(/asked GitLab for 3 failed deliveries at .*; 3 arrived/);
    const recovered = await recoveredCount(page);
    await expect.poll(recovered, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
  }, 90_000);

  it('Stripe: the endpoint field, the secret picker, the problems with their fix, and Recover now', async () => {
    const { relay, page } = ui;
    await storeToken(relay, 'stripe-key', STRIPE_KEY);
    const { webhook } = await relay.createWebhook({
      name: 'payments',
      authMode: 'signature',
      signatureScheme: 'stripe',
      secret: STRIPE_SECRET,
    });
    const endpoint = stripe.addEndpoint('http://old-tunnel.example.test:1/stripe', STRIPE_SECRET);
    await stripe.emit('invoice.paid', { n: 1 });
    await stripe.emit('charge.succeeded', { n: 2 });
    endpoint.status = 'disabled';

    const link = async (keepPointed: boolean) => {
      const section = await openLinkSection(page, webhook.uid);
      expect(await section.getByLabel('Provider', { exact: true }).inputValue()).toBe('stripe');
      expect(await section.getByLabel('Hook ID').count()).toBe(0);
      await section
        .getByLabel('Webhook endpoint ID')
        .fill(`https://dashboard.stripe.com/test/webhooks/${endpoint.id}`);
      expect(await section.getByLabel('Webhook endpoint ID').inputValue()).toBe(endpoint.id);
      await section.getByLabel('Token secret').selectOption('stripe-key');
      await section.getByLabel('API base URL').fill(stripe.url);
      if (!keepPointed) await section.getByRole('checkbox', { name: /Keep pointed/ }).uncheck();
      await section.getByRole('button', { name: 'Link', exact: true }).click();
      await section.getByTestId('link-check').waitFor();
      return section;
    };

    // Keep pointed off: the check says what is wrong and what to do, and touches nothing.
    let section = await link(false);
    const problems = section.getByRole('list', { name: 'Link problems' });
    await expect.poll(() => problems.textContent()).toContain('or turn on keep pointed.');
    const sentences = await problems.getByRole('listitem').allTextContents();
    expect(sentences).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Stripe webhook endpoint ${endpoint.id} sends to http://old-tunnel\\.example\\.test:1/stripe, not to this webhook's .*/webhooks/w/${webhook.uid}; set the hook's URL to it, or turn on keep pointed\\.$`,
        ),
      ),
      `Stripe disabled Stripe webhook endpoint ${endpoint.id} after failed deliveries; enable it in Stripe's hook settings, or turn on keep pointed.`,
    ]);
    expect(endpoint).toMatchObject({
      status: 'disabled',
      url: 'http://old-tunnel.example.test:1/stripe',
    });
    await screenshot(page, 'provider-link-stripe-problems');

    // Linked again with keep pointed on: pointed here, enabled, and what failed recovered.
    await section.getByRole('button', { name: 'Unlink' }).click();
    section = await link(true);
    await expect
      .poll(() => section.getByTestId('link-check').textContent())
      .toContain(`Stripe ${endpoint.id} sends here · active`);
    expect(endpoint.status).toBe('enabled');
    await section.getByRole('button', { name: 'Recover now' }).click();
    await expect
      .poll(() => section.getByTestId('link-recovery').textContent(), { timeout: 10_000 })
      .toMatch(/asked Stripe for 2 failed deliveries at .*; 2 arrived/);
    const recovered = await recoveredCount(page);
    await expect.poll(recovered, { timeout: 10_000 }).toBe(2);
    await screenshot(page, 'provider-link-stripe-recovered');
  }, 90_000);
});
