import { createHmac, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { post } from '../integration/signatures/support/relay-calls.js';
import { axeProblems } from './support/axe.js';
import { openUi, useBrowserAndRelay } from './support/browser.js';
import { cutOffParts } from './support/layout.js';
import {
  addWebhookButton,
  deliveryList,
  deliveryRow,
  oneTime,
  recentDeliveries,
} from './support/webhooks-ui.js';

/** A pull request as GitHub sends it (docs.github.com, "pull_request" event), trimmed. */
const PULL_REQUEST = JSON.stringify({
  action: 'opened',
  number: 42,
  pull_request: { number: 42, title: 'Fix retries', state: 'open', user: { login: 'octocat' } },
  repository: { full_name: 'acme/api', name: 'api' },
  sender: { login: 'octocat' },
});

/** GitHub's headers for a body (docs.github.com, "Validating webhook deliveries"). */
const githubHeaders = (body: string, secret: string, contentType: string) => ({
  'Content-Type': contentType,
  'X-GitHub-Event': 'pull_request',
  'X-GitHub-Delivery': randomUUID(),
  'X-Hub-Signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
});

const VIEWPORTS = [
  { width: 1024, height: 768 },
  { width: 1440, height: 900 },
] as const;

describe('the operator’s first hour with a GitHub webhook', () => {
  const shared = useBrowserAndRelay();

  for (const viewport of VIEWPORTS) {
    it(`at ${viewport.width}×${viewport.height}: checklist, summary row, form-body reason, light and dark`, async () => {
      const ui = await openUi(shared.browser, { relay: shared.relay, viewport });
      const { page } = ui;
      page.setDefaultTimeout(15_000);
      try {
        const name = `github-${viewport.width}`;
        await addWebhookButton(page).click();
        const dialog = page.getByRole('dialog', { name: 'Add webhook' });
        await dialog.getByLabel('Name', { exact: true }).fill(name);
        await dialog.getByRole('radio', { name: /Provider signature/ }).check();
        await dialog.getByLabel('Provider scheme').selectOption({ label: 'GitHub' });
        await expect.poll(() => dialog.getByText('You choose this secret').count()).toBe(1);
        await dialog.getByRole('button', { name: 'Generate' }).click();
        const secret = await dialog.getByLabel('Signing secret').inputValue();
        expect(secret).toMatch(/^[0-9a-f]{64}$/);
        await dialog.getByRole('button', { name: 'Create' }).click();

        const ready = page.getByRole('dialog', { name: `Webhook ${name} is ready` });
        await ready.waitFor();
        const checklist = ready.getByRole('region', { name: 'Set it up at the sender' });
        await expect
          .poll(() => checklist.textContent())
          .toContain('Content type: application/json');
        expect(await checklist.textContent()).toContain('Payload URL:');
        // The test relay listens on 127.0.0.1: GitHub could not reach it, and the panel says so.
        const loopback = checklist.getByRole('note');
        expect(await loopback.textContent()).toContain('cannot reach 127.0.0.1');
        expect(await loopback.getByRole('link').getAttribute('href')).toBe('#/settings');
        for (const scheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          expect(await axeProblems(page, `checklist, ${scheme}`)).toEqual([]);
        }
        const url = await oneTime(page, 'ingress-url');
        await page.getByRole('button', { name: 'Done' }).click();

        const sent = await post(
          url,
          PULL_REQUEST,
          githubHeaders(PULL_REQUEST, secret, 'application/json'),
        );
        expect(sent.status).toBe(202);
        const row = deliveryRow(page, /acme\/api #42 opened: Fix retries/);
        await row.waitFor();

        // GitHub's default content type: refused, and the reason names the fix.
        const form = `payload=${encodeURIComponent(PULL_REQUEST)}`;
        const refused = await post(
          url,
          form,
          githubHeaders(form, secret, 'application/x-www-form-urlencoded'),
        );
        expect(refused.status).toBe(400);
        const refusedRow = deliveryRow(page, /Rejected \(invalid JSON\)/);
        await refusedRow.waitFor();
        await refusedRow.click();
        await expect
          .poll(() => recentDeliveries(page).textContent())
          .toContain(
            "GitHub sent application/x-www-form-urlencoded: set the hook's Content type to application/json",
          );
        // On a narrow window the entry opens over the list: Escape closes it either way.
        await page.keyboard.press('Escape');
        await expect.poll(() => refusedRow.getAttribute('aria-expanded')).toBe('false');

        expect(await cutOffParts(page)).toEqual([]);
        for (const scheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          expect(await axeProblems(page, `deliveries, ${scheme}`)).toEqual([]);
        }

        // A search marks where the summary matched.
        await recentDeliveries(page).getByLabel('Search deliveries').fill('fix retr');
        const mark = deliveryList(page).locator('mark');
        await expect.poll(() => mark.textContent()).toBe('Fix retr');
        expect(await deliveryList(page).getByRole('button').count()).toBe(1);
      } finally {
        await ui.close();
      }
    }, 120_000);
  }

  it('a used login link opens the sign-in form with one sentence; Sign out signs out', async () => {
    const { browser, relay } = shared;
    const link = relay.core.loginLink();
    const first = await browser.newContext();
    const used = await first.newPage();
    used.setDefaultTimeout(15_000);
    await used.goto(link);
    await used.getByRole('navigation', { name: 'Sections' }).waitFor();
    await first.close();

    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(link);
      await page.getByRole('heading', { name: 'Sign in to Hookport' }).waitFor();
      expect(await page.getByText('That login link').textContent()).toBe(
        'That login link was already used or is no longer valid: sign in with a token below.',
      );
      await page.getByLabel('Token').fill(relay.adminToken);
      await page.getByRole('button', { name: 'Sign in' }).click();
      const nav = page.getByRole('navigation', { name: 'Sections' });
      await nav.waitFor();
      expect(new URL(page.url()).search).toBe('');

      await nav.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { name: 'Sign in to Hookport' }).waitFor();
      expect(await page.getByText('That login link').count()).toBe(0);
    } finally {
      await context.close();
    }
  }, 60_000);
});
