import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { copyFixture, createFixtureSecrets, writeDefinition } from '../support/definitions.js';
import { useBrowser, openUi, screenshot } from './support/browser.js';

async function openSettings(page: Page): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Sections' })
    .getByRole('link', { name: 'Settings' })
    .click();
  await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
}

/** The page scrolls inside its main pane, so a tall window is what shows all of it at once. */
const TALL = { width: 1400, height: 2000 };

const section = (page: Page, name: string) => page.getByRole('region', { name });

describe('the Settings page in Chromium', () => {
  const env = useBrowser();

  it('sets the public base URL that every ingress URL follows, and shows refusals at the field', async () => {
    const ui = await openUi(env.browser);
    try {
      const { page, relay } = ui;
      const created = await relay.createWebhook({ name: 'orders' });
      await openSettings(page);
      const publicUrl = section(page, 'Public base URL');
      await expect(publicUrl.textContent()).resolves.toContain(relay.ingressUrl);

      const field = publicUrl.getByLabel('Public base URL', { exact: true });
      await field.fill('not a url');
      // Said as typed, by the relay's own rule; Save waits.
      await expect(publicUrl.getByRole('alert').textContent()).resolves.toContain(
        'must be an http(s) URL such as https://abc.trycloudflare.com',
      );
      await expect(
        publicUrl.getByRole('button', { name: 'Save public base URL' }).isDisabled(),
      ).resolves.toBe(true);
      await expect(field.getAttribute('aria-invalid')).resolves.toBe('true');

      // A query is refused in words as it is typed, too.
      await field.fill('https://hooks.example.test/?via=tunnel');
      await publicUrl
        .getByRole('alert')
        .filter({ hasText: 'must not have a query (?…) or fragment (#…)' })
        .waitFor();

      // Corrected, the error goes before the Save.
      await field.fill('https://hooks.example.test/');
      await publicUrl.getByRole('alert').waitFor({ state: 'detached' });
      await expect(field.getAttribute('aria-invalid')).resolves.toBeNull();
      await publicUrl.getByRole('button', { name: 'Save public base URL' }).click();
      await publicUrl.getByText('Ingress URLs are shown as https://hooks.example.test/').waitFor();
      await expect(field.inputValue()).resolves.toBe('https://hooks.example.test');
      const status = page.getByRole('contentinfo', { name: 'Relay status' });
      await status.getByText('https://hooks.example.test').waitFor();

      const listed = await relay.call('webhooks.list', {});
      expect(listed.items[0]?.ingressUrl).toBe(
        `https://hooks.example.test${new URL(created.ingressUrl).pathname}`,
      );
      // The Webhooks page (built alongside) shows the same derived URL in the webhook's detail.
      await page.goto(`${relay.adminUrl}/#/webhooks/${created.webhook.uid}`);
      const title = page.getByRole('main').getByRole('heading', { level: 1 });
      await title.waitFor();
      if ((await title.textContent()) === 'Webhooks') {
        await page.getByRole('main').getByText('https://hooks.example.test').first().waitFor();
      }

      await openSettings(page);
      const retention = section(page, 'Retention');
      await retention.getByLabel('Keep deliveries for (days)').fill('3');
      await expect(retention.getByRole('alert').textContent()).resolves.toContain(
        'The number of days must be 7 or more.',
      );
      await expect(retention.textContent()).resolves.toContain('At least 7 days.');
      await retention.getByLabel('Keep deliveries for (days)').fill('10');
      await retention.getByLabel('Keep at least the newest (per webhook)').fill('60');
      await retention.getByRole('button', { name: 'Save retention' }).click();
      await retention.getByText('Every delivery of the last 10 days is kept').waitFor();
      const settings = await relay.call('settings.get', {});
      expect(settings).toMatchObject({ retentionDays: 10, retentionMinPerWebhook: 60 });
    } finally {
      await ui.close();
    }
  });

  it('sets a command executor and reads it back, with the API error at the field it names', async () => {
    const ui = await openUi(env.browser, { viewport: TALL });
    try {
      const { page, relay } = ui;
      await openSettings(page);
      const executor = section(page, 'Run executor');
      await expect(executor.getByLabel('Record only').isChecked()).resolves.toBe(true);
      await executor.getByRole('radio', { name: 'Command' }).check();
      // The contract's defaults, filled in.
      await expect(executor.getByLabel('Timeout (seconds)').inputValue()).resolves.toBe('600');
      const commandInput = executor.getByRole('textbox', { name: 'Command' });
      await commandInput.fill('/bin/echo');
      await executor.getByLabel('Arguments').fill('hello\nworld');
      await executor.getByLabel('Working directory').fill('relative/dir');
      await executor.getByLabel('Concurrency').fill('2');
      const cwdError = executor.getByRole('alert');
      await expect(cwdError.textContent()).resolves.toBe(
        'Working directory must be an absolute path.',
      );
      await expect(
        executor.getByLabel('Working directory').getAttribute('aria-invalid'),
      ).resolves.toBe('true');

      await executor.getByLabel('Working directory').fill('/tmp');
      await executor.getByRole('button', { name: 'Save run executor' }).click();
      await page.getByText('Run executor saved: Command.').waitFor();
      const saved = await relay.call('factories.executor', { id: 'default' });
      expect(saved).toEqual({
        factory: 'default',
        executor: {
          kind: 'command',
          command: '/bin/echo',
          args: ['hello', 'world'],
          cwd: '/tmp',
          timeoutSeconds: 600,
          concurrency: 2,
          shell: false,
        },
        mcpForRuns: false,
      });

      await page.reload();
      const again = section(page, 'Run executor');
      await expect(again.getByRole('radio', { name: 'Command' }).isChecked()).resolves.toBe(true);
      await expect(again.getByRole('textbox', { name: 'Command' }).inputValue()).resolves.toBe(
        '/bin/echo',
      );
      await expect(again.getByLabel('Arguments').inputValue()).resolves.toBe('hello\nworld');
      await screenshot(page, 'settings-page');
    } finally {
      await ui.close();
    }
  });

  it('mints a view token shown once, and revokes it', async () => {
    const ui = await openUi(env.browser);
    try {
      const { page, relay } = ui;
      await openSettings(page);
      const tokens = section(page, 'Tokens');
      await tokens.getByText('No tokens yet.').waitFor();
      await tokens.getByRole('button', { name: 'Create token' }).click();
      const form = page.getByRole('dialog', { name: 'Create token' });
      await form.getByLabel('Name').fill('dashboard');
      await form.getByRole('radio', { name: /^view/ }).check();
      await form.getByRole('button', { name: 'Create' }).click();
      const shown = page.getByRole('dialog', { name: 'Token created' });
      const value = (await shown.getByTestId('one-time-api-token').textContent()) ?? '';
      await expect(shown.textContent()).resolves.toContain('You will not see this token again.');
      const asView = await relay.api('GET', '/api/status', undefined, { token: value });
      expect(asView.body).toMatchObject({ role: 'view' });
      await screenshot(page, 'settings-token-created');
      await shown.getByRole('button', { name: 'Done' }).click();
      await shown.waitFor({ state: 'detached' });

      const row = tokens.getByRole('row', { name: /dashboard/ });
      await expect(row.textContent()).resolves.toContain('view');
      expect(await page.locator('body').textContent()).not.toContain(value);

      await row.getByRole('button', { name: 'Revoke dashboard' }).click();
      const confirm = page.getByRole('dialog', { name: 'Revoke "dashboard"?' });
      await expect(confirm.textContent()).resolves.toContain(
        'Anything using it gets 401 at once, and every browser signed in with it is signed out',
      );
      await confirm.getByRole('button', { name: 'Revoke', exact: true }).click();
      await row.waitFor({ state: 'detached' });
      const revoked = await relay.api('GET', '/api/status', undefined, { token: value });
      expect(revoked.status).toBe(401);
    } finally {
      await ui.close();
    }
  });

  it('applies a definitions directory after showing its plan, then syncs and names a broken file', async () => {
    const ui = await openUi(env.browser, { viewport: TALL });
    try {
      const { page, relay } = ui;
      await createFixtureSecrets(relay);
      await relay.createWebhook({ name: 'stray' });
      const dir = copyFixture('basic');
      await openSettings(page);
      const definitions = section(page, 'Definitions');
      await expect(definitions.textContent()).resolves.toContain('hookport apply <dir>');

      await definitions.getByLabel('Definitions directory').fill('relative');
      await definitions.getByRole('button', { name: 'Apply…' }).click();
      await expect(definitions.getByRole('alert').textContent()).resolves.toContain(
        'Must be an absolute path',
      );

      await definitions.getByLabel('Definitions directory').fill(dir);
      await definitions.getByRole('button', { name: 'Apply…' }).click();
      const confirm = page.getByRole('dialog', { name: 'Apply this directory?' });
      const planText = await confirm.textContent();
      expect(planText).toContain('1 without a file is deleted: webhook stray');
      expect(planText).toContain('3 create, 0 update, 1 delete, 0 unchanged');
      await screenshot(page, 'settings-apply-confirm');
      await expect(
        relay.call('webhooks.list', {}).then((listed) => listed.items.length),
      ).resolves.toBe(1);
      await confirm.getByRole('button', { name: 'Apply', exact: true }).click();
      await confirm.waitFor({ state: 'detached' });

      await definitions.getByText(`Managed by ${dir}`).waitFor();
      await page
        .getByRole('contentinfo', { name: 'Relay status' })
        .getByText('Managed by')
        .waitFor();
      await definitions.getByText('Applied:').waitFor();
      const names = await relay.call('webhooks.list', {});
      expect(names.items.map((w) => w.name).sort()).toEqual(['github-prod', 'nightly', 'partner']);

      await definitions.getByLabel('Plan only').check();
      await definitions.getByRole('button', { name: 'Sync now' }).click();
      await definitions.getByText('Plan only, nothing changed:').waitFor();
      await expect(definitions.getByRole('table').textContent()).resolves.toContain('unchanged');
      await screenshot(page, 'settings-definitions-plan');

      writeDefinition(dir, 'webhooks/nightly.yaml', 'authMode: token\nsecretName: missing-one\n');
      await definitions.getByRole('button', { name: 'Sync now' }).click();
      await expect(definitions.getByRole('alert').textContent()).resolves.toContain(
        'webhooks/nightly.yaml:2: secretName',
      );
    } finally {
      await ui.close();
    }
  });
});
