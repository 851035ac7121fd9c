import { describe, expect, it } from 'vitest';
import {
  createAutomation,
  listRuns,
  setExecutor,
  waitForRun,
  webhookTrigger,
} from '../support/automations.js';
import type { CreatedWebhook } from '../support/relay.js';
import { seedLog } from '../support/seed-log.js';
import { waitFor } from '../support/wait.js';
import { sqliteDbOf } from '../../src/main/store/sqlite/sqlite-store.js';
import { send } from './support/actions.js';
import { axeProblems } from './support/axe.js';
import { openUi, screenshot, useBrowserAndRelay } from './support/browser.js';
import { boxOf, coloursIn, cutOffParts, statusLineTop } from './support/layout.js';
import { deliveryList, deliveryRow, recentDeliveries } from './support/webhooks-ui.js';

const VIEWPORTS = [
  { width: 1024, height: 768 },
  { width: 1440, height: 900 },
] as const;

/** What a failing `command` run prints last, on stderr: what the operator must read first. */
const STDERR = 'error: CRM unreachable';
const FAILING_COMMAND = [
  '-c',
  `i=0; while [ $i -lt 40 ]; do echo "sync step $i"; i=$((i+1)); done; echo "${STDERR}" >&2; exit 1`,
];

describe('pages keep what matters in view', { timeout: 90_000 }, () => {
  const env = useBrowserAndRelay();
  let log: CreatedWebhook;
  let crm: CreatedWebhook;
  let failedRun = '';
  let searchedId = '';

  it('sets up six webhooks, a long log, and a command run that fails', async () => {
    const { relay } = env;
    log = await relay.createWebhook({ name: 'acme-api', eventTypePath: 'event' });
    crm = await relay.createWebhook({ name: 'crm-sync-production-hook', eventTypePath: 'event' });
    for (const name of ['stripe-billing', 'nightly-cron', 'linear-issues', 'shopify-orders'])
      await relay.createWebhook({ name });
    seedLog(sqliteDbOf(relay.core.store), log.webhook.uid, 400);
    // Only deep in the payload: the row must say why a search for it matched.
    searchedId = await send(log, {
      event: 'deploy.finished',
      env: 'prod',
      region: 'eu-west',
      tier: 'gold',
      owner: 'platform',
      // In an array: never part of the summary (the generic rule passes arrays over).
      meta: { log: ['built', 'released by dana-sokolova at noon'] },
    });
    await createAutomation(relay, {
      name: 'crm-sync',
      prompt: 'Sync the customer to the CRM.\n'.repeat(40),
      triggers: [webhookTrigger([crm.webhook.uid])],
    });
    await setExecutor(relay, { kind: 'command', command: '/bin/sh', args: FAILING_COMMAND });
    for (let i = 0; i < 3; i++)
      await send(crm, { event: 'customer.updated', customer: { id: `cus_${i}`, plan: 'pro' } });
    const runs = await waitFor(async () => {
      const page = await listRuns(env.relay);
      return page.items.length === 3 ? page.items : null;
    }, 'three runs');
    failedRun = runs[0]!.id;
    for (const run of runs) await waitForRun(relay, run.id, ['failed']);
  });

  for (const viewport of VIEWPORTS) {
    const size = `${viewport.width}×${viewport.height}`;

    it(`at ${size}: a webhook's page leads with its deliveries, on the page's own scroll`, async () => {
      const ui = await openUi(env.browser, { relay: env.relay, viewport });
      const { page } = ui;
      page.setDefaultTimeout(10_000);
      try {
        await page.goto(`${env.relay.adminUrl}/#/webhooks/${log.webhook.uid}`);
        const tabs = page.getByRole('tablist', { name: 'Webhook sections' });
        await expect(
          tabs.getByRole('tab', { name: 'Deliveries' }).getAttribute('aria-selected'),
        ).resolves.toBe('true');
        // Each tab is whole: its label's lower half is drawn (the deliveries head's cover, a
        // shadow upwards, once hid it), the selected tab's underline left out.
        for (const tab of await tabs.getByRole('tab').all()) {
          const box = await boxOf(tab);
          const lowerHalf = { ...box, y: box.y + box.height / 2, height: box.height / 2 - 3 };
          expect(await coloursIn(page, lowerHalf)).toBeGreaterThan(2);
        }
        // The first rows are on screen without scrolling.
        const list = deliveryList(page);
        await deliveryRow(page, /dana-sokolova|deploy\.finished/)
          .first()
          .waitFor();
        const firstRow = await boxOf(list.getByRole('button').first());
        expect(firstRow.y + firstRow.height).toBeLessThan(viewport.height - 40);
        // No scroll box inside the scrolling page: the list is as tall as its rows, the page scrolls.
        const inner = await page.evaluate<{ overflow: string; fits: boolean }>(`(() => {
          const el = document.querySelector('[aria-label="Deliveries, newest first"]');
          return { overflow: getComputedStyle(el).overflowY, fits: el.scrollHeight <= el.clientHeight + 2 };
        })()`);
        expect(inner).toEqual({ overflow: 'visible', fits: true });
        const loaded = async (): Promise<number> => Number(await list.getAttribute('data-loaded'));
        expect(await loaded()).toBe(200);
        expect(await list.getByRole('listitem').count()).toBeLessThan(80);
        await page.mouse.move(viewport.width / 2, viewport.height / 2);
        for (let i = 0; i < 20 && (await loaded()) < 400; i++) await page.mouse.wheel(0, 3000);
        await waitFor(async () => (await loaded()) > 200, 'the next page, read on scroll');
        const scrolled = await page.evaluate<number>(`document.querySelector('.main').scrollTop`);
        expect(scrolled).toBeGreaterThan(1000);

        // The settings, the chart and the refusals are tabs.
        await tabs.getByRole('tab', { name: 'Settings' }).click();
        await page.getByRole('region', { name: 'Provider link' }).waitFor();
        await tabs.getByRole('tab', { name: 'Volume' }).click();
        await page.getByRole('region', { name: 'Volume' }).waitFor();
        await tabs.getByRole('tab', { name: 'Refused' }).click();
        await page.getByRole('region', { name: 'Refused requests' }).waitFor();
        await tabs.getByRole('tab', { name: 'Refused' }).press('Home');
        await recentDeliveries(page).waitFor();

        // A search result says why it matched.
        await page.getByRole('searchbox').first().fill('sokolova');
        await page.getByRole('searchbox').first().press('Enter');
        const found = deliveryRow(page, new RegExp(searchedId));
        await recentDeliveries(page)
          .getByText(/^1 of /)
          .waitFor();
        await expect(found.getByTestId('delivery-match').textContent()).resolves.toContain(
          'released by dana-sokolova',
        );
        await expect(found.locator('mark').textContent()).resolves.toBe('sokolova');
        expect(await cutOffParts(page)).toEqual([]);
        await screenshot(page, `layout-webhook-${viewport.width}`);
      } finally {
        await ui.close();
      }
    });

    it(`at ${size}: no table cuts a column, light and dark, and passes axe`, async () => {
      const ui = await openUi(env.browser, { relay: env.relay, viewport });
      const { page } = ui;
      page.setDefaultTimeout(10_000);
      const problems: string[] = [];
      try {
        for (const scheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          const pages = {
            webhooks: '#/webhooks',
            runs: '#/runs',
            'runs with one open': `#/runs/${failedRun}`,
            'a webhook': `#/webhooks/${log.webhook.uid}`,
          };
          for (const [what, hash] of Object.entries(pages)) {
            await page.goto(`${env.relay.adminUrl}/${hash}`);
            await page.locator('table.table:visible, .delivery-row:visible').first().waitFor();
            await page.waitForLoadState('networkidle');
            for (const cut of await cutOffParts(page)) problems.push(`${what}: ${cut}`);
            problems.push(...(await axeProblems(page, `${what} (${scheme})`)));
          }
        }
        // Each run names its event.
        const row = page.locator('table.runs-table tbody tr').first();
        await page.goto(`${env.relay.adminUrl}/#/runs`);
        await expect(row.textContent()).resolves.toContain('customer.updated');
        await screenshot(page, `layout-runs-${viewport.width}`);
        expect(problems).toEqual([]);
      } finally {
        await ui.close();
      }
    });

    it(`at ${size}: a failed run's cause is on screen first, before its input`, async () => {
      const ui = await openUi(env.browser, { relay: env.relay, viewport });
      const { page } = ui;
      page.setDefaultTimeout(10_000);
      try {
        await page.goto(`${env.relay.adminUrl}/#/runs/${failedRun}`);
        const run = page.getByRole('region', { name: `Run ${failedRun}` });
        const cause = run.getByRole('region', { name: 'Output', exact: true }).getByText(STDERR);
        const box = await boxOf(cause);
        expect(box.y + box.height).toBeLessThan(await statusLineTop(page));
        const input = await boxOf(run.getByRole('region', { name: 'Input (PROMPT.md)' }));
        expect(input.y).toBeGreaterThan(box.y);
        await expect(run.getByTestId('run-exit-code').textContent()).resolves.toBe('1');
        await run.getByRole('button', { name: /^Show all \d+ lines$/ }).click();
        await expect
          .poll(() => run.getByTestId('run-output').textContent())
          .toContain('sync step 0\n');
        await screenshot(page, `layout-run-${viewport.width}`);
      } finally {
        await ui.close();
      }
    });

    it(`at ${size}: answers appear where the click was, never over the status line`, async () => {
      const ui = await openUi(env.browser, { relay: env.relay, viewport });
      const { page } = ui;
      page.setDefaultTimeout(10_000);
      try {
        const delivery = (await listRuns(env.relay)).items[0]!.deliveryId;
        await page.goto(`${env.relay.adminUrl}/#/webhooks/${crm.webhook.uid}/${delivery}`);
        const panel = page.getByRole('region', { name: `Delivery ${delivery}` });
        await panel.waitFor();
        const statusTop = await statusLineTop(page);
        const panelBox = await boxOf(page.locator('.delivery-panel'));
        expect(panelBox.y + panelBox.height).toBeLessThanOrEqual(statusTop + 0.5);

        // Test against an automation: the verdict is scrolled into view.
        await panel.getByLabel('Automation').selectOption({ label: 'crm-sync' });
        await panel.getByRole('button', { name: 'Test filter' }).click();
        const verdict = panel.getByText('Would trigger', { exact: false }).first();
        await verdict.waitFor();
        const verdictBox = await boxOf(verdict);
        expect(verdictBox.y).toBeGreaterThanOrEqual(0);
        expect(verdictBox.y + verdictBox.height).toBeLessThanOrEqual(statusTop);

        // A toast stops above the status line.
        await page.keyboard.press('Escape');
        await page
          .getByRole('region', { name: `Webhook ${crm.webhook.name}` })
          .getByRole('switch')
          .click();
        const toast = page.locator('.toast').first();
        await toast.waitFor();
        const toastBox = await boxOf(toast);
        expect(toastBox.y + toastBox.height).toBeLessThanOrEqual(statusTop);
        await screenshot(page, `layout-toast-${viewport.width}`);
      } finally {
        await ui.close();
      }
    });
  }
});
