import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createAutomation, listRuns, webhookTrigger } from '../support/automations.js';
import { bearer, postDelivery } from '../support/relay.js';
import { seedLog } from '../support/seed-log.js';
import { waitFor } from '../support/wait.js';
import { send } from './support/actions.js';
import { openUi, screenshot, useBrowserAndRelay } from './support/browser.js';
import {
  deliveryList,
  deliveryRow,
  openWebhookTab,
  recentDeliveries,
} from './support/webhooks-ui.js';
import { sqliteDbOf } from '../../src/main/store/sqlite/sqlite-store.js';

const SMALL = { width: 1024, height: 768 };
const WIDE = { width: 1400, height: 900 };

/** Whether all of `locator` lies within the window (not below the fold, not off to a side). */
async function inViewport(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const size = page.viewportSize()!;
  return (
    box !== null &&
    box.y >= 0 &&
    box.x >= 0 &&
    box.y + Math.min(box.height, 200) <= size.height &&
    box.x + box.width <= size.width
  );
}

describe('the delivery log at scale, in Chromium', () => {
  const env = useBrowserAndRelay();

  it('finds the one delivery among 10,000 whose payload holds a word, and narrows by label and time', async () => {
    const { browser, relay } = env;
    const created = await relay.createWebhook({ name: 'shop' });
    const uid = created.webhook.uid;
    const ids = seedLog(sqliteDbOf(relay.core.store), uid, 10_000, {
      bodyOf: (i) => JSON.stringify({ order: `order_${i === 8_421 ? 'x8421' : 100_000 + i}` }),
    });
    const ui = await openUi(browser, { relay, viewport: WIDE });
    try {
      const { page } = ui;
      page.setDefaultTimeout(10_000);
      await page.goto(`${relay.adminUrl}/#/webhooks/${uid}`);
      const recent = recentDeliveries(page);
      await recent.getByText('10,000 deliveries, newest first · live').waitFor();

      // A search's rows come first; its total is counted apart (seconds for a common text on a
      // week's log). The count is held here until the rows are seen without it.
      let release = (): void => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      let counts = 0;
      await page.route(/\/deliveries\/count\?.*q=/, async (route) => {
        counts++;
        await held;
        await route.continue();
      });
      await recent.getByLabel('Search deliveries').fill('ordER_X8421');
      await deliveryRow(page, new RegExp(`^Accepted ${ids[8_421]}`)).waitFor();
      await recent
        .getByText('Counting the matches among 10,000 deliveries, newest first · live')
        .waitFor();
      // Live matches while it is counted: their rows at once, and one more count once it lands
      // (each live entry had asked for a count of its own).
      for (const n of [1, 2]) {
        const body = JSON.stringify({ order: 'order_x8421', n });
        expect((await postDelivery(created.ingressUrl, body, bearer(created.secret))).status).toBe(
          202,
        );
      }
      await waitFor(
        async () => (await deliveryList(page).getByRole('listitem').count()) === 3,
        'the live matches listed',
      );
      expect(counts).toBe(1);
      release();
      await recent.getByText('3 of 10,002 deliveries, newest first · live').waitFor();
      expect(counts).toBe(2);
      await expect(deliveryList(page).getByRole('listitem').count()).resolves.toBe(3);

      // A count no longer shown is stopped: its request closes, and the relay stops counting.
      await page.unroute(/\/deliveries\/count\?.*q=/);
      let releaseAgain = (): void => undefined;
      const heldAgain = new Promise<void>((resolve) => (releaseAgain = resolve));
      await page.route(/\/deliveries\/count\?.*q=/, async (route) => {
        await heldAgain;
        await route.continue().catch(() => undefined);
      });
      const stopped: string[] = [];
      page.on('requestfailed', (request) => {
        if (request.url().includes('/deliveries/count?')) stopped.push(request.url());
      });
      await recent.getByLabel('Search deliveries').fill('order_100009');
      await recent
        .getByText('Counting the matches among 10,002 deliveries, newest first · live')
        .waitFor();
      await recent.getByLabel('Search deliveries').fill('ordER_X8421');
      await waitFor(() => stopped.length === 1, "the first search's count stopped");
      expect(stopped[0]).toContain('q=order_100009');
      releaseAgain();
      await recent.getByText('3 of 10,002 deliveries, newest first · live').waitFor();
      await screenshot(page, 'delivery-log-search');

      // Rejected (auth) in the last hour: one a second, every fifth rejected, so 720.
      await recent.getByRole('button', { name: 'Clear filters' }).click();
      await recent
        .getByRole('group', { name: 'Labels' })
        .getByRole('button', { name: 'Rejected (auth)' })
        .click();
      await recent.getByLabel('Time').selectOption('hour');
      // Exact: the relay counts every matching entry, not the rows loaded (a few seconds have
      // passed since seeding, so a few of the oldest have left the hour).
      const status = recent.getByRole('status');
      const shown = await waitFor(async () => {
        const match = /^(\d+) of 10,002 deliveries, newest first/.exec(
          (await status.textContent()) ?? '',
        );
        return match && Number(match[1]) > 690 && Number(match[1]) <= 720 ? Number(match[1]) : null;
      }, 'the count of Rejected (auth) in the last hour');
      const rows = deliveryList(page).getByRole('listitem');
      await expect(rows.filter({ hasNotText: 'Rejected (auth)' }).count()).resolves.toBe(0);
      expect(Number(await deliveryList(page).getAttribute('data-loaded'))).toBe(
        Math.min(shown, 200),
      );
      await screenshot(page, 'delivery-log-rejected-last-hour');
    } finally {
      await ui.close();
    }
  });

  it('at 1024×768 shows a clicked delivery in view, and Escape closes it', async () => {
    const { browser, relay } = env;
    const created = await relay.createWebhook({ name: 'small-window' });
    const uid = created.webhook.uid;
    const ids = seedLog(sqliteDbOf(relay.core.store), uid, 300);
    const ui = await openUi(browser, { relay, viewport: SMALL });
    try {
      const { page } = ui;
      page.setDefaultTimeout(10_000);
      await page.goto(`${relay.adminUrl}/#/webhooks/${uid}`);
      const row = deliveryRow(page, new RegExp(`^Accepted ${ids.at(-3)}`));
      await row.scrollIntoViewIfNeeded();
      await row.click();
      const detail = page.getByRole('region', { name: `Delivery ${ids.at(-3)}` });
      await detail.getByText('Payload', { exact: true }).waitFor();
      expect(await inViewport(page, detail)).toBe(true);
      await expect(row.getAttribute('aria-expanded')).resolves.toBe('true');
      await screenshot(page, 'delivery-detail-1024');

      await row.focus();
      await page.keyboard.press('Escape');
      await detail.waitFor({ state: 'detached' });
      await expect(page.evaluate<string>('window.location.hash')).resolves.toBe(
        `#/webhooks/${uid}`,
      );
    } finally {
      await ui.close();
    }
  });

  it('on a wide window opens the delivery beside its list', async () => {
    const { browser, relay } = env;
    const created = await relay.createWebhook({ name: 'wide-window' });
    const uid = created.webhook.uid;
    const ids = seedLog(sqliteDbOf(relay.core.store), uid, 50);
    const ui = await openUi(browser, { relay, viewport: WIDE });
    try {
      const { page } = ui;
      page.setDefaultTimeout(10_000);
      await page.goto(`${relay.adminUrl}/#/webhooks/${uid}`);
      const row = deliveryRow(page, new RegExp(`^Accepted ${ids.at(-3)}`));
      await row.click();
      const detail = page.getByRole('region', { name: `Delivery ${ids.at(-3)}` });
      await detail.getByText('Payload', { exact: true }).waitFor();
      const list = (await deliveryList(page).boundingBox())!;
      const panel = (await detail.boundingBox())!;
      expect(panel.x).toBeGreaterThanOrEqual(list.x + list.width);
      expect(await inViewport(page, detail)).toBe(true);
      expect(await inViewport(page, row)).toBe(true);
      await screenshot(page, 'delivery-detail-beside-list');
    } finally {
      await ui.close();
    }
  });

  it("lands a run's link on its delivery, even far down a long log", async () => {
    const { browser, relay } = env;
    const hook = await relay.createWebhook({ name: 'runs-to-deliveries' });
    const uid = hook.webhook.uid;
    await createAutomation(relay, { name: 'follow', triggers: [webhookTrigger([uid])] });
    const deliveryId = await send(hook, { build: 7 });
    const runId = await waitFor(async () => (await listRuns(relay)).items[0]?.id, 'the run');
    // 1,000 newer entries push it far past the first page.
    seedLog(sqliteDbOf(relay.core.store), uid, 1_000, {
      atOf: (i) => Date.now() + 60_000 + i * 1000,
    });
    const ui = await openUi(browser, { relay, viewport: SMALL });
    try {
      const { page } = ui;
      page.setDefaultTimeout(10_000);
      await page.goto(`${relay.adminUrl}/#/runs/${runId}`);
      await page.getByRole('link', { name: deliveryId }).first().click();
      const detail = page.getByRole('region', { name: `Delivery ${deliveryId}` });
      await detail.getByText('Payload', { exact: true }).waitFor();
      expect(await inViewport(page, detail)).toBe(true);
      const row = deliveryRow(page, new RegExp(`^Accepted ${deliveryId}`));
      await row.waitFor();
      await expect(row.getAttribute('aria-expanded')).resolves.toBe('true');
      await recentDeliveries(page)
        .getByText(/^1,001 deliveries; showing from .* back$/)
        .waitFor();
      await screenshot(page, 'delivery-landed-from-run');
    } finally {
      await ui.close();
    }
  });

  it('shows refused requests with their reason, and the rejected share on the chart', async () => {
    const { browser, relay } = env;
    const created = await relay.createWebhook({ name: 'charted' });
    const uid = created.webhook.uid;
    const now = Date.now();
    seedLog(sqliteDbOf(relay.core.store), uid, 21_000, {
      atOf: (i) => now - 20 * 3_600_000 + i * 3_000,
      labelOf: (i) => (i % 477 === 0 && i < 44 * 477 ? 'Rejected (auth)' : 'Accepted'),
    });
    const off = await relay.createWebhook({ name: 'switched-off' });
    await relay.call('webhooks.update', { uid: off.webhook.uid, enabled: false });
    expect((await postDelivery(off.ingressUrl, '{}', bearer(off.secret))).status).toBe(404);

    const ui = await openUi(browser, { relay, viewport: WIDE });
    try {
      const { page } = ui;
      page.setDefaultTimeout(10_000);
      await page.goto(`${relay.adminUrl}/#/webhooks/${uid}`);
      await openWebhookTab(page, 'Volume');
      const chart = page.getByRole('region', { name: 'Volume' });
      await chart.getByText('21,000 deliveries in 24 h; 44 rejected (0.21 %)').waitFor();
      await expect(chart.locator('.volume-rejected').count()).resolves.toBeGreaterThan(10);
      await chart.getByRole('button', { name: '7 days' }).click();
      await chart.getByText('21,000 deliveries in 7 days; 44 rejected (0.21 %)').waitFor();
      await screenshot(page, 'webhook-volume-chart');

      const statusLine = page.getByRole('contentinfo', { name: 'Relay status' });
      await statusLine.getByRole('link', { name: /Refused in the last hour: \d+ × 404/ }).click();
      const table = page.getByRole('region', { name: 'Refused requests, newest first' });
      const disabled = table.getByRole('row', { name: /webhook is disabled/ });
      await disabled.waitFor();
      await expect(disabled.textContent()).resolves.toContain(`/webhooks/w/${off.webhook.uid}`);
      await disabled.getByRole('link', { name: 'switched-off' }).waitFor();
      await screenshot(page, 'refused-requests');
    } finally {
      await ui.close();
    }
  });

  it('sets an alarm on a webhook and says so on it and in the status line when it fires', async () => {
    const { browser, relay } = env;
    const created = await relay.createWebhook({ name: 'watched' });
    const ui = await openUi(browser, { relay, viewport: WIDE });
    try {
      const { page } = ui;
      page.setDefaultTimeout(10_000);
      await page.goto(`${relay.adminUrl}/#/webhooks/${created.webhook.uid}`);
      await page.getByText(/^Alarms: /).click();
      await page.getByLabel('Expect an accepted delivery at least every').fill('6');
      await page
        .getByLabel('Alarm when this many newest deliveries are all Rejected (auth)')
        .fill('3');
      await page.getByRole('button', { name: 'Save alarms' }).click();
      await page
        .getByText('Alarms: expect a delivery every 6 h · after 3 Rejected (auth) in a row')
        .waitFor();

      for (let i = 0; i < 3; i++) {
        expect((await postDelivery(created.ingressUrl, '{}', bearer('rotated-away'))).status).toBe(
          401,
        );
      }
      await page
        .getByRole('status')
        .filter({ hasText: 'The newest 3 deliveries were all Rejected (auth)' })
        .waitFor();
      const statusLine = page.getByRole('contentinfo', { name: 'Relay status' });
      await statusLine.getByRole('link', { name: 'watched: Rejected (auth) streak' }).waitFor();
      await screenshot(page, 'webhook-alarm');
    } finally {
      await ui.close();
    }
  });
});
