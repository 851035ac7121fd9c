import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  createAutomation,
  listRuns,
  setExecutor,
  waitForRun,
  webhookTrigger,
} from '../support/automations.js';
import { tempDir } from '../support/relay.js';
import { waitFor } from '../support/wait.js';
import { send } from './support/actions.js';
import { openUi, screenshot, useBrowser } from './support/browser.js';

const FLOW_MS = 60_000;
const POLL = { timeout: 10_000 };
const runRows = (page: Page): Locator => page.locator('table.runs-table tbody tr');

describe('Runs that read well, in Chromium', () => {
  const env = useBrowser();

  it(
    'filters by automation, shows exit codes, and re-runs all failed runs after saying how many',
    async () => {
      const ui = await openUi(env.browser);
      try {
        const { page, relay } = ui;
        page.setDefaultTimeout(10_000);
        const hook = await relay.createWebhook({ name: 'ci' });
        const uid = hook.webhook.uid;
        await createAutomation(relay, {
          name: 'deploy',
          triggers: [webhookTrigger([uid], { job: 'deploy' })],
        });
        await createAutomation(relay, {
          name: 'lint',
          triggers: [webhookTrigger([uid], { job: 'lint' })],
        });
        await setExecutor(relay, { kind: 'command', command: '/bin/sh', args: ['-c', 'exit 3'] });
        for (const n of [1, 2, 3]) await send(hook, { job: 'deploy', n });
        await send(hook, { job: 'lint' });
        await waitFor(
          async () => (await listRuns(relay, '?status=failed')).items.length === 4,
          'four failed runs',
        );
        await setExecutor(relay, { kind: 'record' });

        await page.goto(`${relay.adminUrl}/#/runs`);
        await expect.poll(() => runRows(page).count(), POLL).toBe(4);
        await page.getByLabel('Filter by automation').selectOption({ label: 'deploy' });
        await expect.poll(() => runRows(page).count(), POLL).toBe(3);
        await expect(runRows(page).first().locator('.run-result').textContent()).resolves.toBe(
          'exit 3',
        );

        const filters = page.getByRole('group', { name: 'Filter by status' });
        await filters.getByRole('button', { name: 'failed', exact: true }).click();
        await page.getByRole('button', { name: 'Re-run all failed…' }).click();
        const confirm = page.getByRole('dialog', { name: 'Re-run 3 runs?' });
        await expect(confirm.textContent()).resolves.toContain(
          '3 runs failed of deploy will run again',
        );
        await screenshot(page, 'runs-rerun-all');
        await confirm.getByRole('button', { name: 'Re-run 3' }).click();
        await page.getByText('Re-ran 3 runs of deploy: the new runs are queued.').waitFor();
        await waitFor(
          async () => (await listRuns(relay, '?status=succeeded')).items.length === 3,
          'three re-runs to succeed',
        );
        // Each failed run now says it was re-run, and offers no second Re-run.
        await expect.poll(() => runRows(page).locator('.reran-mark').count(), POLL).toBe(3);
        await runRows(page).first().click();
        const detail = page.getByRole('region', { name: /^Run run_/ });
        await detail.getByText('Re-run as', { exact: true }).waitFor();
        await expect(detail.getByRole('button', { name: 'Re-run' }).count()).resolves.toBe(0);
        await detail.getByText(/^Already re-run as/).waitFor();
        await screenshot(page, 'runs-rerun-linked');
        // Nothing left to re-run: the button says so instead of asking.
        await page.getByRole('button', { name: 'Re-run all failed…' }).click();
        await page.getByText('No failed run of deploy is waiting for a re-run.').waitFor();
      } finally {
        await ui.close();
      }
    },
    FLOW_MS,
  );

  it(
    'streams a command’s output into the run page while it runs',
    async () => {
      const ui = await openUi(env.browser);
      const dir = tempDir('hookport-e2e-live-');
      try {
        const { page, relay } = ui;
        page.setDefaultTimeout(10_000);
        const hook = await relay.createWebhook({ name: 'build' });
        await createAutomation(relay, {
          name: 'build',
          triggers: [webhookTrigger([hook.webhook.uid])],
        });
        const go = join(dir, 'go');
        await setExecutor(relay, {
          kind: 'command',
          command: '/bin/sh',
          args: ['-c', `echo compiling; while [ ! -f "${go}" ]; do sleep 0.05; done; echo done`],
        });
        await send(hook, { ref: 'main' });
        const runId = await waitFor(async () => (await listRuns(relay)).items[0]?.id, 'the run');
        await waitForRun(relay, runId, ['running']);
        await page.goto(`${relay.adminUrl}/#/runs/${runId}`);
        const live = page.getByRole('region', { name: 'Output (live)' });
        await live.getByText('compiling').waitFor();
        await screenshot(page, 'run-output-live');
        writeFileSync(go, '');
        const output = page.getByRole('region', { name: 'Output', exact: true });
        await output.getByText(/compiling\s+done/).waitFor();
      } finally {
        await ui.close();
      }
    },
    FLOW_MS,
  );
});
