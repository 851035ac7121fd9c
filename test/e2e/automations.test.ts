import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createAutomation, webhookTrigger } from '../support/automations.js';
import { automationFile, sync, writeDefinition } from '../support/definitions.js';
import { bearer, postDelivery, tempDir } from '../support/relay.js';
import { send, tabTo } from './support/actions.js';
import { useBrowser, openUi, screenshot } from './support/browser.js';

const FLOW_MS = 60_000;
const POLL = { timeout: 10_000 };

/** The verdict once Test filter has answered for the trigger as it stands (not a stale one). */
async function expectVerdict(panel: Locator, verdict: string): Promise<void> {
  const title = panel.locator('[aria-busy="false"] .verdict-title');
  await expect
    .poll(() => title.textContent({ timeout: 1_000 }).catch(() => null), { timeout: 10_000 })
    .toBe(verdict);
}

/**
 * A page script (the tests' TypeScript has no DOM) that delivers each hashchange 300 ms late,
 * to every listener the page adds after it.
 */
const LATE_HASHCHANGE = `
  let replaying = false;
  window.addEventListener('hashchange', (event) => {
    if (replaying) return;
    event.stopImmediatePropagation();
    setTimeout(() => {
      replaying = true;
      window.dispatchEvent(
        new HashChangeEvent('hashchange', { oldURL: event.oldURL, newURL: event.newURL }),
      );
      replaying = false;
    }, 300);
  }, true);
`;

function testPanel(page: Page): Locator {
  return page.getByRole('complementary', { name: 'Test filter' });
}

async function pickDelivery(page: Page, deliveryId: string): Promise<void> {
  const select = testPanel(page).getByLabel('Stored delivery');
  await select.locator(`option[value="${deliveryId}"]`).waitFor({ state: 'attached' });
  await select.selectOption(deliveryId);
}

describe('the Automations page in Chromium', () => {
  const env = useBrowser();

  it(
    'creates an automation with a payload filter, tests it both ways, runs it, and flags a deleted webhook',
    async () => {
      const ui = await openUi(env.browser);
      try {
        const { page, relay } = ui;
        const hook = await relay.createWebhook({ name: 'github-prod' });
        await relay.createWebhook({ name: 'other-hook' });
        const stored = await send(hook, { action: 'opened', pull_request: { state: 'open' } });

        await page
          .getByRole('navigation', { name: 'Sections' })
          .getByRole('link', { name: 'Automations' })
          .click();
        await page.getByText('No automations yet.').waitFor();
        await screenshot(page, 'automations-empty');
        await page.getByRole('button', { name: 'New automation' }).click();

        await page.getByLabel('Name', { exact: true }).fill('triage');
        await page.getByLabel('Prompt', { exact: true }).fill('Label the pull request.');
        const trigger = page.getByRole('region', { name: 'Trigger 1' });
        await trigger.getByLabel('github-prod').check();

        // A bad filter names its path, marks the editor invalid, and blocks Save.
        const filter = trigger.getByLabel('Payload filter');
        await filter.fill('{"action": {"in": "opened"}}');
        await trigger.getByText('payload.action.in: expected an array of values').waitFor();
        await expect(filter.getAttribute('aria-invalid')).resolves.toBe('true');
        const save = page.getByRole('button', { name: 'Save' });
        await expect(save.isDisabled()).resolves.toBe(true);
        await page.getByText('Fix the payload filter of trigger 1 before saving.').waitFor();
        await save.scrollIntoViewIfNeeded();
        await screenshot(page, 'automation-filter-error');
        await filter.fill('{"action": ["opened"]}');
        await expect.poll(() => filter.getAttribute('aria-invalid'), POLL).toBe('false');
        await expect.poll(() => save.isEnabled(), POLL).toBe(true);

        // Test filter works on the unsaved trigger, and again as the filter changes.
        const panel = testPanel(page);
        await pickDelivery(page, stored);
        await expectVerdict(panel, 'Would trigger');
        await expect(panel.textContent()).resolves.toContain('github-prod is selected');
        await filter.fill('{"action": ["closed"]}');
        await expectVerdict(panel, 'Would not trigger');
        const details = await panel.locator('.failure-fields').textContent();
        expect(details).toContain('Failing path');
        expect(details).toContain('action');
        expect(details).toContain('one of ["closed"]');
        expect(details).toContain('"opened"');
        await expect(panel.locator('.check-fail').textContent()).resolves.toContain(
          'Payload check failed',
        );
        await screenshot(page, 'automation-editor-test-filter');

        await filter.fill('{"action": ["opened"]}');

        // A second trigger is its own card; Test filter tests the one chosen.
        await page.getByRole('button', { name: 'Add trigger' }).click();
        const second = page.getByRole('region', { name: 'Trigger 2' });
        await second.getByLabel('other-hook').check();
        await panel.getByLabel('Trigger to test').selectOption('Trigger 2');
        await expectVerdict(panel, 'Would not trigger');
        await expect(panel.locator('.check-fail').textContent()).resolves.toContain(
          'is not selected in "Webhook received from"',
        );
        await second.getByRole('button', { name: 'Remove trigger 2' }).click();
        await expectVerdict(panel, 'Would trigger');
        let tests = 0;
        page.on('request', (r) => {
          if (r.url().endsWith('/api/automations/test-filter')) tests += 1;
        });
        await save.click();
        await page.getByText('Created automation triage.').waitFor();
        await page.waitForURL(/#\/automations\/aut_/);
        // Saving keeps the picked delivery and tests it again, now against the saved trigger.
        await page.getByRole('heading', { name: 'triage' }).waitFor();
        await expect.poll(() => tests, POLL).toBeGreaterThan(0);
        await expect(panel.getByLabel('Stored delivery').inputValue()).resolves.toBe(stored);
        await expectVerdict(panel, 'Would trigger');
        await screenshot(page, 'automation-saved-test-filter');
        // Going Back to "New automation" starts an empty one, not the one just created.
        await page.goBack();
        await page.getByRole('heading', { name: 'New automation' }).waitFor();
        await expect(page.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe('');
        const listed = await relay.call('automations.list', {});
        expect(listed.items).toHaveLength(1);
        expect(listed.items[0]?.triggers).toEqual([
          webhookTrigger([hook.webhook.uid], { action: ['opened'] }),
        ]);

        // A matching delivery starts a run; it shows on the Runs page with its input.
        const matching = await send(hook, { action: 'opened', number: 7 });
        await page
          .getByRole('navigation', { name: 'Sections' })
          .getByRole('link', { name: 'Runs' })
          .click();
        const row = page.getByRole('row').filter({ hasText: 'triage' });
        await row.filter({ hasText: 'succeeded' }).waitFor();
        await row.click();
        const detail = page.getByRole('region', { name: /^Run run_/ });
        const input = await detail.getByRole('region', { name: 'Input (PROMPT.md)' }).textContent();
        expect(input).toContain('Label the pull request.');
        expect(input).toContain(`- Delivery ID: ${matching}`);
        expect(input).toContain(`github-prod (${hook.webhook.uid})`);
        expect(input).toContain('untrusted context');
        await expect(
          detail.getByRole('region', { name: 'event-payload.json' }).textContent(),
        ).resolves.toContain('{"action":"opened","number":7}');

        // Deleting the webhook leaves the automation visible, flagged, and unsaveable as it is.
        await relay.call('webhooks.delete', { uid: hook.webhook.uid });
        await page
          .getByRole('navigation', { name: 'Sections' })
          .getByRole('link', { name: 'Automations' })
          .click();
        const listRow = page.getByRole('row').filter({ hasText: 'triage' });
        await listRow.getByText('points at a deleted webhook').waitFor();
        await expect(listRow.textContent()).resolves.toContain('github-prod (deleted)');
        await screenshot(page, 'automations-list');

        await listRow.click();
        // The editor names the deleted webhook as the list does; its UID only stays in a tooltip.
        const banner = page.locator('.warning-note').filter({ hasText: 'fires no more' });
        await expect(banner.textContent()).resolves.toContain(
          'This automation points at github-prod (deleted): it fires no more',
        );
        const card = page.getByRole('region', { name: 'Trigger 1' });
        await expect(card.locator('.trigger-summary').textContent()).resolves.toContain(
          'Webhook received from github-prod (deleted); payload filter',
        );
        const picker = card.getByRole('group', { name: 'Webhook received from' });
        await picker.getByText('github-prod (deleted)').waitFor();
        const option = panel.getByLabel('Stored delivery').locator(`option[value="${matching}"]`);
        await option.waitFor({ state: 'attached' });
        await expect(option.textContent()).resolves.toContain('github-prod (deleted)');
        await pickDelivery(page, matching);
        expect(await page.locator('main').innerText()).not.toContain(hook.webhook.uid);
        await screenshot(page, 'automation-editor-deleted-webhook');
        await page.getByRole('button', { name: 'Save' }).click();
        await picker
          .getByText(
            'github-prod (deleted) can no longer fire: remove it, or choose another webhook.',
          )
          .waitFor();
        await card.getByRole('button', { name: 'Remove github-prod (deleted)' }).click();
        await card.getByLabel('other-hook').check();
        await page.getByRole('button', { name: 'Save' }).click();
        await page.getByText('Saved automation triage.').waitFor();
        const saved = await relay.call('automations.get', { id: listed.items[0]!.id });
        expect(saved.deletedWebhookUids).toEqual([]);
      } finally {
        await ui.close();
      }
    },
    FLOW_MS,
  );

  it(
    'keeps the new automation’s editor and Test filter when the route catches up late after Create',
    async () => {
      const ui = await openUi(env.browser);
      try {
        const { page, relay } = ui;
        const hook = await relay.createWebhook({ name: 'late-route' });
        const stored = await send(hook, { action: 'opened' });
        // The browser tells the page of the new route a moment after the create answers: the
        // order a loaded machine sometimes gave, which once reset the editor to a blank one.
        await page.addInitScript(LATE_HASHCHANGE);
        await page.reload();
        await page.getByRole('navigation', { name: 'Sections' }).waitFor();
        await page.evaluate("window.location.hash = '#/automations/new'");
        await page.getByLabel('Name', { exact: true }).fill('late');
        await page.getByLabel('Prompt', { exact: true }).fill('Look at it.');
        const trigger = page.getByRole('region', { name: 'Trigger 1' });
        await trigger.getByLabel('late-route').check();
        await trigger.getByLabel('Payload filter').fill('{"action": ["opened"]}');
        const panel = testPanel(page);
        await pickDelivery(page, stored);
        await expectVerdict(panel, 'Would trigger');

        let tests = 0;
        page.on('request', (r) => {
          if (r.url().endsWith('/api/automations/test-filter')) tests += 1;
        });
        await page.getByRole('button', { name: 'Save' }).click();
        await page.getByText('Created automation late.').waitFor();
        await page.waitForURL(/#\/automations\/aut_/);
        await page.getByRole('heading', { name: 'late' }).waitFor();
        await expect.poll(() => tests, POLL).toBeGreaterThan(0);
        await expect(panel.getByLabel('Stored delivery').inputValue()).resolves.toBe(stored);
        await expectVerdict(panel, 'Would trigger');
        await expect(page.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe('late');
      } finally {
        await ui.close();
      }
    },
    FLOW_MS,
  );

  it(
    'creates an automation using only the keyboard',
    async () => {
      const ui = await openUi(env.browser);
      try {
        const { page, relay } = ui;
        const hook = await relay.createWebhook({ name: 'kb-hook' });
        await createAutomation(relay, {
          name: 'first',
          triggers: [webhookTrigger([hook.webhook.uid])],
        });
        const nav = page.getByRole('navigation', { name: 'Sections' });
        await tabTo(page, nav.getByRole('link', { name: 'Automations' }));
        await page.keyboard.press('Enter');

        // A row opens with Enter; the "← Automations" link leads back.
        const row = page.getByRole('row').filter({ hasText: 'first' });
        await tabTo(page, row);
        await page.keyboard.press('Enter');
        await page.getByRole('heading', { name: 'first' }).waitFor();
        await tabTo(page, page.getByRole('link', { name: '← Automations' }));
        await page.keyboard.press('Enter');

        await tabTo(page, page.getByRole('button', { name: 'New automation' }));
        await page.keyboard.press('Enter');
        await tabTo(page, page.getByLabel('Name', { exact: true }));
        await page.keyboard.type('keyboard-made');
        await tabTo(page, page.getByLabel('Prompt', { exact: true }), 1);
        await page.keyboard.type('Made without a mouse.');
        const trigger = page.getByRole('region', { name: 'Trigger 1' });
        await tabTo(page, trigger.getByLabel('kb-hook'));
        await page.keyboard.press('Space');
        await tabTo(page, trigger.getByLabel('Payload filter'));
        await page.keyboard.type('{"kind": ["push"]}');
        await tabTo(page, page.getByRole('button', { name: 'Save' }));
        await page.keyboard.press('Enter');
        await page.getByText('Created automation keyboard-made.').waitFor();

        const listed = await relay.call('automations.list', {});
        const made = listed.items.find((a) => a.name === 'keyboard-made');
        expect(made?.prompt).toBe('Made without a mouse.');
        expect(made?.triggers).toEqual([webhookTrigger([hook.webhook.uid], { kind: ['push'] })]);
      } finally {
        await ui.close();
      }
    },
    FLOW_MS,
  );

  it(
    'opens the editor with Test filter preloaded from a link, and a view token can test but not save',
    async () => {
      const ui = await openUi(env.browser);
      try {
        const { relay } = ui;
        const hook = await relay.createWebhook({ name: 'linked' });
        const automation = await createAutomation(relay, {
          name: 'linked-auto',
          triggers: [webhookTrigger([hook.webhook.uid], { ref: ['refs/heads/main'] })],
        });
        const deliveryId = await send(hook, { ref: 'refs/heads/dev' });
        const minted = await relay.call('tokens.create', { name: 'viewer', role: 'view' });
        const viewer = await openUi(env.browser, { relay, token: minted.value });
        try {
          const page = viewer.page;
          await page.goto(`${relay.adminUrl}/#/automations/${automation.id}/test/${deliveryId}`);
          const panel = testPanel(page);
          await expectVerdict(panel, 'Would not trigger');
          await expect(panel.locator('.failure-fields').textContent()).resolves.toContain('ref');
          await expect(page.getByRole('button', { name: 'Save' }).isDisabled()).resolves.toBe(true);
          await expect(page.getByRole('button', { name: 'Delete' }).isDisabled()).resolves.toBe(
            true,
          );
          await page.getByText('Your token has the "view" role').first().waitFor();
        } finally {
          await viewer.close();
        }
      } finally {
        await ui.close();
      }
    },
    FLOW_MS,
  );

  it(
    'is read-only on a managed factory and names the file to edit, while Test filter still works',
    async () => {
      const ui = await openUi(env.browser);
      try {
        const { page, relay } = ui;
        await relay.call('secrets.create', { name: 'gh-token', value: 'gh-token-value-123456' });
        const dir = tempDir('hookport-defs-');
        writeDefinition(dir, 'webhooks/gh.yaml', 'authMode: token\nsecretName: gh-token\n');
        const first = await sync(relay, { dir });
        const uid = first.body.items.find((i) => i.kind === 'webhook')?.id ?? '';
        writeDefinition(dir, 'automations/managed-triage.md', automationFile([uid], 'Triage it.'));
        const second = await sync(relay, {});
        expect(second.body.applied).toBe(true);
        const webhook = await relay.call('webhooks.get', { uid });
        const sent = await postDelivery(
          webhook.ingressUrl,
          '{"action":"opened"}',
          bearer('gh-token-value-123456'),
        );
        expect(sent.status).toBe(202);

        await page
          .getByRole('navigation', { name: 'Sections' })
          .getByRole('link', { name: 'Automations' })
          .click();
        // The relay context learns that the factory is managed from the sync's change event.
        const add = page.getByRole('button', { name: 'New automation' });
        await expect.poll(() => add.isDisabled(), POLL).toBe(true);
        await page.getByRole('row').filter({ hasText: 'managed-triage' }).click();
        await page.getByText('automations/managed-triage.md instead').waitFor();
        await expect(
          page.getByLabel('Name', { exact: true }).getAttribute('readonly'),
        ).resolves.toBe('');
        await expect(page.getByRole('button', { name: 'Save' }).isDisabled()).resolves.toBe(true);
        await pickDelivery(page, sent.body.delivery_id ?? '');
        await expectVerdict(testPanel(page), 'Would trigger');
      } finally {
        await ui.close();
      }
    },
    FLOW_MS,
  );
});
