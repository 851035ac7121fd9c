import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAutomation, webhookTrigger } from '../support/automations.js';
import { bearer, postDelivery } from '../support/relay.js';
import { loadAxe } from './support/axe.js';
import { launchBrowser, openUi, type UiSession } from './support/browser.js';

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/**
 * axe-core's checks (WCAG 2.1 A and AA) on every page, light and dark. Injected over the
 * DevTools protocol: the UI's CSP rightly refuses inline scripts, so a script tag would not run.
 */
async function violations(page: Page): Promise<string[]> {
  await loadAxe(page);
  const found = await page.evaluate<AxeViolation[]>(
    `axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }).then((r) => r.violations)`,
  );
  return found
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.help}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe('accessibility of every page', () => {
  let browser: Browser;
  let ui: UiSession;
  const routes: Record<string, string> = {};
  beforeAll(async () => {
    browser = await launchBrowser();
    ui = await openUi(browser);
    const { relay } = ui;
    const created = await relay.createWebhook({ name: 'github-prod' });
    const uid = created.webhook.uid;
    const sent = await postDelivery(
      created.ingressUrl,
      '{"action":"opened"}',
      bearer(created.secret),
    );
    await postDelivery(created.ingressUrl, '{}', bearer('wrong'));
    await postDelivery(`${relay.ingressUrl}/webhooks/w/${'x'.repeat(8)}`, '{}');
    const automation = await createAutomation(relay, {
      name: 'triage',
      triggers: [webhookTrigger([uid], { action: ['opened'] })],
    });
    const delivery = sent.body.delivery_id!;
    Object.assign(routes, {
      webhooks: `#/webhooks/${uid}/${delivery}`,
      automations: '#/automations',
      editor: `#/automations/${automation.id}/test/${delivery}`,
      runs: '#/runs',
      secrets: '#/secrets',
      settings: '#/settings',
      refused: '#/refused',
    });
  });
  afterAll(async () => {
    await ui.close();
    await browser.close();
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(
      `has no serious or critical WCAG A/AA violation in the ${scheme} theme`,
      { timeout: 90_000 },
      async () => {
        const { page, relay } = ui;
        await page.emulateMedia({ colorScheme: scheme });
        const problems: string[] = [];
        for (const [name, hash] of Object.entries(routes)) {
          await page.goto(`${relay.adminUrl}/${hash}`);
          await page.getByRole('navigation', { name: 'Sections' }).waitFor();
          await page.getByRole('heading', { level: 1 }).first().waitFor();
          await page.waitForLoadState('networkidle');
          for (const problem of await violations(page)) problems.push(`${name}: ${problem}`);
        }
        // A webhook's page in each of its tabs, and its log searched (the match is marked).
        await page.goto(`${relay.adminUrl}/${routes.webhooks!.split('/').slice(0, 3).join('/')}`);
        const tabs = page.getByRole('tablist', { name: 'Webhook sections' });
        for (const tab of ['Settings', 'Volume', 'Refused'] as const) {
          await tabs.getByRole('tab', { name: tab }).click();
          await page.waitForLoadState('networkidle');
          for (const problem of await violations(page)) problems.push(`${tab} tab: ${problem}`);
        }
        await tabs.getByRole('tab', { name: 'Deliveries' }).click();
        await page.getByRole('searchbox', { name: 'Search deliveries' }).fill('opened');
        await page.getByRole('searchbox', { name: 'Search deliveries' }).press('Enter');
        await page.locator('.delivery-row mark').first().waitFor();
        for (const problem of await violations(page)) problems.push(`search: ${problem}`);
        await page.goto(`${relay.adminUrl}/#/webhooks`);
        await page.getByRole('button', { name: 'Add webhook' }).first().click();
        await page.getByRole('dialog', { name: 'Add webhook' }).waitFor();
        for (const problem of await violations(page)) problems.push(`Add webhook: ${problem}`);
        expect(problems).toEqual([]);
      },
    );
  }

  it('has no serious or critical violation in the relay-stopped banner, light and dark', async () => {
    // Its own relay: this one is stopped under the open page.
    const own = await openUi(browser);
    try {
      const { page, relay } = own;
      await page.goto(`${relay.adminUrl}/#/webhooks`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await relay.core.stop();
      await page.getByRole('status').filter({ hasText: 'The relay is not answering' }).waitFor();
      const problems: string[] = [];
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        for (const problem of await violations(page)) problems.push(`${scheme}: ${problem}`);
      }
      expect(problems).toEqual([]);
    } finally {
      await own.close();
    }
  }, 60_000);
});
