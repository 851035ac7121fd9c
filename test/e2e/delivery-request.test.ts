import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Automation } from '../../src/shared/contract/automations.js';
import { getDelivery, listDeliveries } from '../support/deliveries.js';
import type { TestRelay } from '../support/relay.js';
import { createSignatureWebhook, post } from '../integration/signatures/support/relay-calls.js';
import { nowSeconds, SENDERS } from '../integration/signatures/support/senders.js';
import { openUi, screenshot, useBrowser } from './support/browser.js';
import { clipboardText, deliveryRow, detailPane, openWebhookTab } from './support/webhooks-ui.js';

const FLOW_MS = 60_000;
const POLL = { timeout: 10_000 };
const github = SENDERS.find((s) => s.scheme === 'github')!;
const run = promisify(execFile);

/** A GitHub delivery as GitHub sends it: signed, with its event header. */
async function sendGithub(
  ingressUrl: string,
  event: string,
  body: object,
  secret = github.secret,
): Promise<{ status: number; id: string | undefined }> {
  const bytes = Buffer.from(JSON.stringify(body));
  const headers = {
    'User-Agent': 'GitHub-Hookshot/044aadd',
    'Content-Type': 'application/json',
    ...github.sign(bytes, secret, nowSeconds(), randomUUID()),
    'X-GitHub-Event': event,
  };
  const sent = await post(ingressUrl, bytes, headers);
  return { status: sent.status, id: sent.body.delivery_id };
}

async function openWebhook(page: Page, name: string): Promise<Locator> {
  await page
    .getByRole('navigation', { name: 'Sections' })
    .getByRole('link', { name: 'Webhooks' })
    .click();
  // The name, not the row's middle: that is the Enabled switch.
  await page
    .getByRole('row', { name: new RegExp(name) })
    .getByText(name, { exact: true })
    .click();
  const pane = detailPane(page, name);
  await pane.waitFor();
  return pane;
}

/** The issue's "done when": two GitHub events with the same action, one refused, one automation. */
async function githubScene(relay: TestRelay) {
  const { webhook, ingressUrl } = await createSignatureWebhook(relay, github, {
    name: 'github-prod',
  });
  const pr = await sendGithub(ingressUrl, 'pull_request', { action: 'opened', number: 7 });
  const issue = await sendGithub(ingressUrl, 'issues', { action: 'opened', issue: { number: 8 } });
  const forged = await sendGithub(
    ingressUrl,
    'pull_request',
    { action: 'opened' },
    github.otherSecret,
  );
  expect([pr.status, issue.status, forged.status]).toEqual([202, 202, 401]);
  await expect
    .poll(async () => (await listDeliveries(relay, webhook.uid)).items.length, POLL)
    .toBe(3);
  const rejected = (await listDeliveries(relay, webhook.uid)).items[0]!;
  return { webhook, ingressUrl, pr: pr.id!, issue: issue.id!, rejected: rejected.id };
}

describe('every delivery seen whole, in Chromium', () => {
  const env = useBrowser();

  it(
    'shows event types in the list and a rejected delivery’s headers, credentials marked redacted',
    async () => {
      const ui = await openUi(env.browser);
      try {
        const { page, relay } = ui;
        const scene = await githubScene(relay);
        await openWebhook(page, 'github-prod');
        await deliveryRow(
          page,
          new RegExp(`^Accepted ${scene.pr}.*pull_request\\.opened`),
        ).waitFor();
        await deliveryRow(page, new RegExp(`^Accepted ${scene.issue}.*issues\\.opened`)).waitFor();

        await deliveryRow(page, new RegExp(`^Rejected \\(auth\\) ${scene.rejected}`)).click();
        const detail = page.getByRole('region', { name: `Delivery ${scene.rejected}` });
        await detail.getByRole('heading', { name: 'Request headers' }).waitFor();
        const table = detail.getByRole('table', { name: 'Request headers' });
        const signature = table.getByRole('row', { name: /X-Hub-Signature-256/ });
        await expect(signature.textContent()).resolves.toBe('X-Hub-Signature-256redacted');
        await expect(signature.locator('.badge-redacted').getAttribute('title')).resolves.toContain(
          'never stores its value',
        );
        await expect(
          table.getByRole('row', { name: /X-GitHub-Event/ }).textContent(),
        ).resolves.toBe('X-GitHub-Eventpull_request');
        await expect(detail.textContent()).resolves.toContain(
          `POST /webhooks/w/${scene.webhook.uid}`,
        );
        await expect(detail.textContent()).resolves.toContain('signature mismatch');
        await table.scrollIntoViewIfNeeded();
        await screenshot(page, 'delivery-rejected-headers');

        // An accepted one has the Headers view beside Tree and Raw.
        await deliveryRow(page, new RegExp(`^Accepted ${scene.pr}`)).click();
        const accepted = page.getByRole('region', { name: `Delivery ${scene.pr}` });
        await accepted.getByRole('tab', { name: 'Headers' }).click();
        await accepted.getByRole('table', { name: 'Request headers' }).waitFor();
        await expect(
          accepted.getByRole('table', { name: 'Request headers' }).textContent(),
        ).resolves.toContain('GitHub-Hookshot/044aadd');
        await accepted.getByRole('table', { name: 'Request headers' }).scrollIntoViewIfNeeded();
        await screenshot(page, 'delivery-accepted-headers-tab');
        await page.emulateMedia({ colorScheme: 'dark' });
        await screenshot(page, 'delivery-accepted-headers-tab-dark');
        await page.emulateMedia({ colorScheme: 'light' });
      } finally {
        await ui.close();
      }
    },
    FLOW_MS,
  );

  it(
    'copies a delivery as curl that, run with $SECRET set, the relay takes again (a Duplicate)',
    async () => {
      const ui = await openUi(env.browser);
      try {
        const { page, relay } = ui;
        const hook = await relay.createWebhook({ name: 'jobs' });
        const pane = await openWebhook(page, 'jobs');
        // The event type path, set in the Settings tab.
        await openWebhookTab(page, 'Settings');
        await pane.getByRole('button', { name: 'Edit Event type path' }).click();
        await pane.getByLabel('Event type path').fill('header:X-Job-Event');
        await pane.getByRole('button', { name: 'Save' }).click();
        await page.getByText('Event type read from header:X-Job-Event.').waitFor();

        const sent = await post(hook.ingressUrl, `{"job":"backup","note":"it's nightly"}`, {
          Authorization: `Bearer ${hook.secret}`,
          'X-Job-Event': 'backup.finished',
          'X-Service-Delivery-Id': 'job-42',
          'Content-Type': 'application/json',
        });
        expect(sent.status).toBe(202);
        const id = sent.body.delivery_id!;
        await openWebhookTab(page, 'Deliveries');
        await deliveryRow(page, new RegExp(`^Accepted ${id}.*backup\\.finished`)).click();
        const detail = page.getByRole('region', { name: `Delivery ${id}` });
        await detail.getByRole('button', { name: 'Copy as curl' }).click();
        await detail.getByRole('button', { name: 'Copied' }).waitFor();
        const command = await clipboardText(page);
        expect(command).not.toContain(hook.secret!);
        expect(command).toContain('"$SECRET"');

        const { stdout } = await run('bash', ['-c', command], {
          env: { PATH: process.env.PATH, SECRET: hook.secret! },
        });
        expect(stdout).toMatch(/^HTTP\/1\.1 202/);
        const again = /"delivery_id":"(dlv_[0-9A-Z]+)"/.exec(stdout)?.[1];
        expect(await getDelivery(relay, again!)).toMatchObject({
          label: 'Duplicate',
          duplicateOf: id,
          eventType: 'backup.finished',
        });
        await screenshot(page, 'delivery-copy-as-curl');
      } finally {
        await ui.close();
      }
    },
    FLOW_MS,
  );

  it(
    'filters an automation by x-github-event: it fires for pull_request, and Test filter says why not for issues',
    async () => {
      const ui = await openUi(env.browser);
      try {
        const { page, relay } = ui;
        const scene = await githubScene(relay);
        await page
          .getByRole('navigation', { name: 'Sections' })
          .getByRole('link', { name: 'Automations' })
          .click();
        await page.getByRole('button', { name: 'New automation' }).click();
        await page.getByLabel('Name', { exact: true }).fill('review-prs');
        await page.getByLabel('Prompt', { exact: true }).fill('Review the pull request.');
        const trigger = page.getByRole('region', { name: 'Trigger 1' });
        await trigger.getByLabel('github-prod').check();

        // A credential header is refused as you type, naming the path.
        const headers = trigger.getByLabel('Header filter');
        await headers.fill('{"X-Hub-Signature-256": {"exists": true}}');
        await trigger
          .getByText(
            'headers.X-Hub-Signature-256: X-Hub-Signature-256 carries a credential: its value is stored as [redacted], so it cannot be filtered on',
          )
          .waitFor();
        await page.getByText('Fix the header filter of trigger 1 before saving.').waitFor();
        await headers.fill('{"x-github-event": ["pull_request"]}');

        const panel = page.getByRole('complementary', { name: 'Test filter' });
        const select = panel.getByLabel('Stored delivery');
        await select.locator(`option[value="${scene.issue}"]`).waitFor({ state: 'attached' });
        await select.selectOption(scene.issue);
        const title = panel.locator('[aria-busy="false"] .verdict-title');
        await expect
          .poll(() => title.textContent({ timeout: 1_000 }).catch(() => null), POLL)
          .toBe('Would not trigger');
        await expect(panel.locator('.check-fail').textContent()).resolves.toContain(
          'Header check failed',
        );
        const failure = await panel.getByRole('table', { name: 'Failing headers' }).textContent();
        expect(failure).toContain('x-github-event');
        expect(failure).toContain('one of ["pull_request"]');
        expect(failure).toContain('"issues"');
        await expect(panel.locator('.check-pass').allTextContents()).resolves.toEqual([
          expect.stringContaining('Webhook check passed') as unknown,
          expect.stringContaining('Payload check passed') as unknown,
        ]);
        await trigger.getByLabel('Header filter').scrollIntoViewIfNeeded();
        await screenshot(page, 'automation-header-filter-test');
        await select.selectOption(scene.pr);
        await expect
          .poll(() => title.textContent({ timeout: 1_000 }).catch(() => null), POLL)
          .toBe('Would trigger');

        await page.getByRole('button', { name: 'Save' }).click();
        await page.getByText('Created automation review-prs.').waitFor();
        const saved = (await relay.api<{ items: Automation[] }>('GET', '/api/automations')).body
          .items[0]!;
        expect(saved.triggers[0]!.filter.headers).toEqual({ 'x-github-event': ['pull_request'] });

        const pr = await sendGithub(scene.ingressUrl, 'pull_request', {
          action: 'opened',
          number: 9,
        });
        const issue = await sendGithub(scene.ingressUrl, 'issues', {
          action: 'opened',
          number: 10,
        });
        expect((await getDelivery(relay, pr.id!)).runIds).toHaveLength(1);
        expect((await getDelivery(relay, issue.id!)).runIds).toEqual([]);
      } finally {
        await ui.close();
      }
    },
    FLOW_MS,
  );
});
