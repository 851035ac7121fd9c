import { createHmac, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createAutomation,
  listRuns,
  setExecutor,
  waitForRun,
  webhookTrigger,
} from '../support/automations.js';
import { waitFor } from '../support/wait.js';
import { post } from '../integration/signatures/support/relay-calls.js';
import { openUi, screenshot, useBrowserAndRelay } from './support/browser.js';
import { boxOf, cutOffParts, statusLineTop } from './support/layout.js';
import { addWebhookButton, deliveryRow, oneTime } from './support/webhooks-ui.js';

/**
 * A pull_request "opened" delivery as GitHub sends it (docs.github.com, "Webhook events and
 * payloads", pull_request), with the fields a real one carries around the ones the summary reads.
 */
const PULL_REQUEST = JSON.stringify({
  action: 'opened',
  number: 42,
  pull_request: {
    url: 'https://api.github.com/repos/acme/api/pulls/42',
    id: 1_987_654_321,
    html_url: 'https://github.com/acme/api/pull/42',
    number: 42,
    state: 'open',
    locked: false,
    title: 'Fix retries',
    user: { login: 'octocat', id: 1, type: 'User' },
    body: 'Retries now back off exponentially and stop after five attempts.',
    created_at: '2026-11-27T09:12:44Z',
    updated_at: '2026-11-27T09:12:44Z',
    draft: false,
    head: {
      label: 'octocat:fix-retries',
      ref: 'fix-retries',
      sha: '6dcb09b5b57875f334f61aebed695e2e4193db5e',
    },
    base: { label: 'acme:main', ref: 'main', sha: '9049f1265b7d61be4a8904a9a27120d2064dab3b' },
    additions: 120,
    deletions: 14,
    changed_files: 3,
  },
  repository: {
    id: 1_296_269,
    name: 'api',
    full_name: 'acme/api',
    private: true,
    owner: { login: 'acme', id: 2, type: 'Organization' },
    html_url: 'https://github.com/acme/api',
    default_branch: 'main',
  },
  organization: { login: 'acme', id: 2 },
  sender: { login: 'octocat', id: 1, type: 'User' },
});

/** What the sync program prints before it fails, and the line that says why (stderr, last). */
const STDERR = 'error: CRM unreachable';
const FAILING_SYNC = [
  '-c',
  `i=0; while [ $i -lt 30 ]; do echo "sync step $i"; i=$((i+1)); done; echo "${STDERR}" >&2; exit 1`,
];

/**
 * Issue 29's "Done when", as one newcomer's path at 1024×768: create a GitHub webhook and follow
 * the checklist it shows (nothing else read), see the first pull request as its summary, open the
 * failed run it started and read why it failed without scrolling; nothing cut off on the way.
 */
describe('a newcomer’s first hour at 1024×768', () => {
  const env = useBrowserAndRelay();

  it('creates a GitHub webhook from its checklist, reads the pull request, and the failed run’s cause', async () => {
    const { relay } = env;
    const ui = await openUi(env.browser, { relay, viewport: { width: 1024, height: 768 } });
    const { page } = ui;
    page.setDefaultTimeout(15_000);
    const cut: string[] = [];
    const noteCutOff = async (where: string): Promise<void> => {
      for (const part of await cutOffParts(page)) cut.push(`${where}: ${part}`);
    };
    try {
      // Add webhook → Provider signature → GitHub → Generate: the checklist names each setting.
      await addWebhookButton(page).click();
      const dialog = page.getByRole('dialog', { name: 'Add webhook' });
      await dialog.getByLabel('Name', { exact: true }).fill('acme-api');
      await dialog.getByRole('radio', { name: /Provider signature/ }).check();
      await dialog.getByLabel('Provider scheme').selectOption({ label: 'GitHub' });
      await dialog.getByRole('button', { name: 'Generate' }).click();
      await dialog.getByRole('button', { name: 'Create' }).click();
      const ready = page.getByRole('dialog', { name: 'Webhook acme-api is ready' });
      const checklist = ready.getByRole('region', { name: 'Set it up at the sender' });
      await expect.poll(() => checklist.textContent()).toContain('Content type: application/json');
      const steps = (await checklist.textContent()) ?? '';
      expect(steps).toContain('Payload URL:');
      expect(steps).toContain('Secret');
      // What the checklist tells the newcomer to paste into GitHub, and nothing else.
      const payloadUrl = await oneTime(page, 'ingress-url');
      const secret = await oneTime(page, 'secret');
      const doneBox = await boxOf(ready.getByRole('button', { name: 'Done' }));
      expect(doneBox.y + doneBox.height).toBeLessThanOrEqual(768);
      await screenshot(page, 'walkthrough-1-checklist');
      await ready.getByRole('button', { name: 'Done' }).click();

      // The team's sync automation on that webhook, run by a program that fails (set up by API:
      // the walkthrough is the webhook and the runs).
      await setExecutor(relay, { kind: 'command', command: '/bin/sh', args: FAILING_SYNC });
      const uid = (
        await relay.api<{ items: Array<{ uid: string; name: string }> }>('GET', '/api/webhooks')
      ).body.items.find((w) => w.name === 'acme-api')!.uid;
      await createAutomation(relay, {
        name: 'crm-sync',
        prompt: 'Sync the pull request to the CRM.',
        triggers: [webhookTrigger([uid])],
      });

      // GitHub delivers the pull request as the checklist set it up: JSON, signed with the secret.
      const sent = await post(payloadUrl, PULL_REQUEST, {
        'Content-Type': 'application/json',
        'User-Agent': 'GitHub-Hookshot/a1b2c3d',
        'X-GitHub-Event': 'pull_request',
        'X-GitHub-Delivery': randomUUID(),
        'X-GitHub-Hook-ID': '500123',
        'X-Hub-Signature-256': `sha256=${createHmac('sha256', secret).update(PULL_REQUEST).digest('hex')}`,
      });
      expect(sent.status).toBe(202);
      const row = deliveryRow(page, /acme\/api #42 opened: Fix retries/);
      await row.waitFor();
      const rowBox = await boxOf(row);
      expect(rowBox.y + rowBox.height).toBeLessThanOrEqual(await statusLineTop(page));
      await noteCutOff('the webhook page');
      await screenshot(page, 'walkthrough-2-first-pull-request');

      // Runs → the failed run: its cause is on screen as the page opens.
      const run = await waitFor(async () => (await listRuns(relay)).items[0], 'the run');
      await waitForRun(relay, run.id, ['failed']);
      await page
        .getByRole('navigation', { name: 'Sections' })
        .getByRole('link', { name: 'Runs' })
        .click();
      const runRow = page
        .locator('table.runs-table tbody tr')
        .filter({ hasText: 'failed' })
        .first();
      await runRow.waitFor();
      expect(await runRow.textContent()).toContain('pull_request');
      await noteCutOff('the Runs page');
      await runRow.locator('td').first().click();
      const detail = page.getByRole('region', { name: `Run ${run.id}` });
      const cause = detail.getByRole('region', { name: 'Output', exact: true }).getByText(STDERR);
      const causeBox = await boxOf(cause);
      expect(causeBox.y).toBeGreaterThanOrEqual(0);
      expect(causeBox.y + causeBox.height).toBeLessThanOrEqual(await statusLineTop(page));
      expect(await page.evaluate<number>(`document.querySelector('.main').scrollTop`)).toBe(0);
      await noteCutOff('the run page');
      await screenshot(page, 'walkthrough-3-failed-run');
      expect(cut).toEqual([]);
    } finally {
      await ui.close();
    }
  }, 90_000);
});
