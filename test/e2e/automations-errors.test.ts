import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser, openUi, screenshot } from './support/browser.js';

const FLOW_MS = 60_000;

async function openNewAutomation(page: Page, adminUrl: string): Promise<void> {
  await page.goto(`${adminUrl}/#/automations/new`);
  await page.getByRole('heading', { name: 'New automation' }).waitFor();
}

/** The automation editor's own field errors: said beside the field, in the operator's words. */
describe('the automation editor when saving is refused, in Chromium', () => {
  const env = useBrowser();

  it(
    'asks for a webhook beside the checkboxes of the trigger that has none',
    async () => {
      const ui = await openUi(env.browser);
      try {
        const { page, relay } = ui;
        await relay.createWebhook({ name: 'picked-hook' });
        await relay.createWebhook({ name: 'spare-hook' });
        await openNewAutomation(page, relay.adminUrl);
        await page.getByLabel('Name', { exact: true }).fill('needs-webhook');
        await page.getByLabel('Prompt', { exact: true }).fill('Do it.');

        const first = page.getByRole('region', { name: 'Trigger 1' });
        const firstSummary = first.locator('.trigger-summary');
        await expect(firstSummary.textContent()).resolves.toContain('choose at least one');
        await expect(firstSummary.textContent()).resolves.not.toContain('every delivery');
        await first.getByLabel('picked-hook').check();
        await expect(firstSummary.textContent()).resolves.toContain(
          'Webhook received from picked-hook; every delivery',
        );

        // Trigger 2 has no webhook: the refusal lands at its checkboxes, not at Trigger 1's.
        await page.getByRole('button', { name: 'Add trigger' }).click();
        const second = page.getByRole('region', { name: 'Trigger 2' });
        await page.getByRole('button', { name: 'Save' }).click();
        const picker = second.getByRole('group', { name: 'Webhook received from' });
        await picker.getByText('Choose at least one webhook.').waitFor();
        await expect(picker.getAttribute('aria-invalid')).resolves.toBe('true');
        await expect(first.getByText('Choose at least one webhook.').count()).resolves.toBe(0);
        await page.getByText('Not saved: Trigger 2: Choose at least one webhook.').waitFor();
        const shown = (await page.locator('main').textContent()) ?? '';
        expect(shown).not.toContain('webhook_ids');
        expect(shown).not.toContain('UID');
        await picker.scrollIntoViewIfNeeded();
        await screenshot(page, 'automation-save-no-webhook');

        await second.getByLabel('spare-hook').check();
        await page.getByRole('button', { name: 'Save' }).click();
        await page.getByText('Created automation needs-webhook.').waitFor();
        const listed = await relay.call('automations.list', {});
        expect(listed.items.map((a) => a.name)).toEqual(['needs-webhook']);
      } finally {
        await ui.close();
      }
    },
    FLOW_MS,
  );

  it(
    'says beside Name, in its own words, that the name is required',
    async () => {
      const ui = await openUi(env.browser);
      try {
        const { page, relay } = ui;
        const hook = await relay.createWebhook({ name: 'named-hook' });
        await openNewAutomation(page, relay.adminUrl);
        await page.getByRole('region', { name: 'Trigger 1' }).getByLabel('named-hook').check();
        const name = page.getByLabel('Name', { exact: true });
        await page.getByRole('button', { name: 'Save' }).click();

        const described = (await name.getAttribute('aria-describedby')) ?? '';
        const note = page.locator(`[id="${described}"]`);
        await expect.poll(() => note.textContent()).toContain('Name is required');
        await expect(name.getAttribute('aria-invalid')).resolves.toBe('true');
        await expect.poll(() => name.and(page.locator(':focus')).count()).toBe(1);
        await page.getByText('Not saved: Name is required').waitFor();
        await screenshot(page, 'automation-name-required');

        // The prompt is next, the same way; with both filled in, the automation is created.
        await name.fill('named');
        await page.getByRole('button', { name: 'Save' }).click();
        await page.getByText('Not saved: Prompt is required').waitFor();
        await page.getByLabel('Prompt', { exact: true }).fill('Do the thing.');
        await page.getByRole('button', { name: 'Save' }).click();
        await page.getByText('Created automation named.').waitFor();
        const listed = await relay.call('automations.list', {});
        expect(listed.items[0]?.triggers[0]?.filter.webhook_ids).toEqual([hook.webhook.uid]);
      } finally {
        await ui.close();
      }
    },
    FLOW_MS,
  );
});
