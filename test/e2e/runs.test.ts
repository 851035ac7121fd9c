import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  createAutomation,
  listRuns,
  setExecutor,
  waitForRun,
  webhookTrigger,
} from '../support/automations.js';
import { waitFor } from '../support/wait.js';
import { send, tabTo } from './support/actions.js';
import { useBrowser, openUi, screenshot } from './support/browser.js';

const FLOW_MS = 60_000;
const POLL = { timeout: 10_000 };

const runRows = (page: Page): Locator => page.locator('table.runs-table tbody tr');

describe('the Runs page in Chromium', () => {
  const env = useBrowser();

  it(
    'shows runs live, filters by status, reads a failed run with its exit code, and re-runs it',
    async () => {
      const ui = await openUi(env.browser);
      try {
        const { page, relay } = ui;
        const nav = page.getByRole('navigation', { name: 'Sections' });
        await nav.getByRole('link', { name: 'Runs' }).click();
        await page.getByText('No runs yet.').waitFor();
        await expect(page.locator('.runs-empty').textContent()).resolves.toContain('Settings');
        await screenshot(page, 'runs-empty');

        const hook = await relay.createWebhook({ name: 'ci-hook' });
        await createAutomation(relay, {
          name: 'deploy',
          prompt: 'Deploy the build.',
          triggers: [webhookTrigger([hook.webhook.uid])],
        });
        const recorded = await send(hook, { build: 1 });
        // Queued runs take the executor of the moment they start: let the first one finish first.
        const firstRun = await waitFor(
          async () => (await listRuns(relay)).items[0]?.id,
          'the first run',
        );
        await waitForRun(relay, firstRun);
        await setExecutor(relay, { kind: 'command', command: '/bin/sh', args: ['-c', 'exit 3'] });
        const failedDelivery = await send(hook, { build: 2 });

        // Both appear without a reload: the page follows run events.
        await runRows(page).filter({ hasText: 'failed' }).waitFor();
        await runRows(page).filter({ hasText: 'succeeded' }).waitFor();
        await expect(runRows(page).count()).resolves.toBe(2);
        const first = runRows(page).first();
        await expect(first.textContent()).resolves.toContain('deploy');
        await expect(first.textContent()).resolves.toContain('ci-hook');
        const deliveryLink = first.getByRole('link', { name: `Delivery ${failedDelivery}` });
        await expect(deliveryLink.getAttribute('href')).resolves.toBe(
          `#/webhooks/${hook.webhook.uid}/${failedDelivery}`,
        );

        const filters = page.getByRole('group', { name: 'Filter by status' });
        await filters.getByRole('button', { name: 'failed', exact: true }).click();
        await expect.poll(() => runRows(page).count(), POLL).toBe(1);
        await expect(runRows(page).first().textContent()).resolves.toContain('failed');
        await filters.getByRole('button', { name: 'interrupted', exact: true }).click();
        await page.getByText('No interrupted runs.').waitFor();
        await filters.getByRole('button', { name: 'All', exact: true }).click();
        await expect.poll(() => runRows(page).count(), POLL).toBe(2);
        await screenshot(page, 'runs-list');

        const failedRow = runRows(page).filter({ hasText: 'failed' });
        await failedRow.click();
        const detail = page.getByRole('region', { name: /^Run run_/ });
        await expect(detail.getByTestId('run-exit-code').textContent()).resolves.toBe('3');
        await expect(failedRow.getAttribute('aria-selected')).resolves.toBe('true');
        const input = await detail.getByRole('region', { name: 'Input (PROMPT.md)' }).textContent();
        expect(input).toContain('Deploy the build.');
        expect(input).toContain(`- Delivery ID: ${failedDelivery}`);
        await expect(
          detail.getByRole('region', { name: 'event-payload.json' }).textContent(),
        ).resolves.toContain('{"build":2}');
        await screenshot(page, 'run-detail');
        const failedId = (await listRuns(relay, '?status=failed')).items[0]?.id ?? '';

        // The re-run executes with today's executor, so it succeeds this time.
        await setExecutor(relay, { kind: 'record' });
        await detail.getByRole('button', { name: 'Re-run' }).click();
        await page.getByText(/^Re-run queued as run_/).waitFor();
        await page.waitForURL(
          (url) => !url.hash.endsWith(failedId) && /#\/runs\/run_/.test(url.hash),
        );
        const newId = decodeURIComponent(new URL(page.url()).hash.replace('#/runs/', ''));
        await waitForRun(relay, newId);
        const rerun = page.getByRole('region', { name: `Run ${newId}` });
        await rerun.getByRole('link', { name: failedId }).waitFor();
        await rerun.locator('.chip-succeeded').waitFor();
        await expect.poll(() => runRows(page).count(), POLL).toBe(3);
        // In the list, the re-run is told apart from the run it repeats.
        const marked = runRows(page).filter({ has: page.locator('.rerun-mark') });
        await expect.poll(() => marked.count(), POLL).toBe(1);
        await expect(marked.locator('.rerun-mark').getAttribute('title')).resolves.toBe(
          `Re-run of ${failedId}`,
        );
        expect(recorded).not.toBe(failedDelivery);
      } finally {
        await ui.close();
      }
    },
    FLOW_MS,
  );

  it(
    'pages older runs with Load more and opens a run from the keyboard',
    async () => {
      const ui = await openUi(env.browser);
      try {
        const { page, relay } = ui;
        const hook = await relay.createWebhook({ name: 'busy-hook' });
        for (const name of ['first-half', 'second-half']) {
          await createAutomation(relay, { name, triggers: [webhookTrigger([hook.webhook.uid])] });
        }
        for (let i = 0; i < 28; i++) await send(hook, { n: i });
        await waitFor(
          async () => (await listRuns(relay, '?limit=100')).items.length === 56,
          '56 runs',
        );

        await page.goto(`${relay.adminUrl}/#/runs`);
        await expect.poll(() => runRows(page).count(), POLL).toBe(50);
        await page.getByRole('button', { name: 'Load more' }).click();
        await expect.poll(() => runRows(page).count(), POLL).toBe(56);
        await expect(page.getByRole('button', { name: 'Load more' }).count()).resolves.toBe(0);

        const row = runRows(page).nth(1);
        await tabTo(page, row);
        await page.keyboard.press('Enter');
        await page.getByRole('region', { name: /^Run run_/ }).waitFor();
        await expect(row.getAttribute('aria-selected')).resolves.toBe('true');
      } finally {
        await ui.close();
      }
    },
    FLOW_MS,
  );
});
