import { describe, expect, it } from 'vitest';
import { bearer, postDelivery } from '../support/relay.js';
import { seedLog } from '../support/seed-log.js';
import { waitFor } from '../support/wait.js';
import { openUi, screenshot, useBrowserAndRelay } from './support/browser.js';
import { deliveryList, deliveryRow, recentDeliveries } from './support/webhooks-ui.js';
import { sqliteDbOf } from '../../src/main/store/sqlite/sqlite-store.js';

const COUNT = 100_000;

describe('Recent deliveries with 100,000 entries', () => {
  const env = useBrowserAndRelay();

  it(
    'opens at once, renders only what is on screen, pages on scroll and still goes live',
    { timeout: 120_000 },
    async () => {
      const { browser, relay } = env;
      const created = await relay.createWebhook({ name: 'firehose' });
      const uid = created.webhook.uid;
      const seeding = Date.now();
      const ids = seedLog(sqliteDbOf(relay.core.store), uid, COUNT);
      console.log(`seeded ${COUNT} deliveries in ${Date.now() - seeding} ms`);
      const ui = await openUi(browser, { relay });
      try {
        const { page } = ui;
        page.setDefaultTimeout(10_000);
        await page.goto(`${relay.adminUrl}/#/webhooks/${uid}`);
        const recent = recentDeliveries(page);
        await recent.getByText('100,000 deliveries, newest first · live').waitFor();
        await deliveryRow(page, new RegExp(`^Rejected \\(auth\\) ${ids.at(-1)}`)).waitFor();

        // Every one of the 24 clock hours is full, so the sparkline counts over 80,000.
        const spark = page
          .getByRole('row', { name: /firehose/ })
          .getByRole('img', { name: /^[\d,]+ deliveries in 24 h: / });
        await spark.waitFor();
        const summary = (await spark.getAttribute('aria-label')) ?? '';
        expect(Number(summary.split(' ')[0]!.replace(/,/g, ''))).toBeGreaterThan(80_000);

        const list = deliveryList(page);
        const rendered = (): Promise<number> => list.getByRole('listitem').count();
        // A screenful on the page's own scroll and the virtualizer's overscan, of 100,000.
        const ON_SCREEN = 60;
        expect(await rendered()).toBeLessThan(ON_SCREEN);

        // Scrolling to the end asks for the next page before the rows run out.
        const loadedRows = async (): Promise<number> =>
          Number(await list.getAttribute('data-loaded'));
        expect(await loadedRows()).toBe(200);
        for (const shown of [400, 600, 800]) {
          await list.hover();
          // 200 rows of the taller kind: in this narrow list an event type has a line of its own.
          await page.mouse.wheel(0, 200 * 52);
          await waitFor(async () => (await loadedRows()) >= shown, `${shown} rows loaded`);
        }
        expect(await rendered()).toBeLessThan(ON_SCREEN);

        // The keyboard walks the rows; End goes to the last loaded one.
        const scrollTop = (): Promise<number> =>
          page.evaluate<number>(`document.querySelector('.main').scrollTop`);
        const focusedIndex = async (): Promise<number> =>
          Number(await page.evaluate<string>('document.activeElement?.dataset.index ?? "-1"'));
        await list.getByRole('button').first().focus();
        await page.keyboard.press('End');
        const last = await waitFor(async () => {
          const index = await focusedIndex();
          return index >= 799 ? index : null;
        }, 'End to focus the last loaded row');
        await page.keyboard.press('ArrowUp');
        await waitFor(async () => (await focusedIndex()) === last - 1, 'ArrowUp to move focus');
        await page.keyboard.press('Enter');
        const expanded = list.locator('[aria-expanded="true"]');
        const expandedId = await expanded.getAttribute('data-delivery-id');
        expect(expandedId).toBe(ids[COUNT - last]);
        await page.getByRole('region', { name: `Delivery ${expandedId}` }).waitFor();

        // Far down the log, a new delivery still arrives live, on top, without moving the view.
        const loaded = await loadedRows();
        const before = await scrollTop();
        const sent = await postDelivery(
          created.ingressUrl,
          '{"late":true}',
          bearer(created.secret),
        );
        await recent.getByText('100,001 deliveries, newest first · live').waitFor();
        await waitFor(async () => (await loadedRows()) === loaded + 1, 'the new row on top');
        const after = await scrollTop();
        expect(after - before).toBe(34);
        await list.hover();
        await page.mouse.wheel(0, -1_000_000);
        await deliveryRow(page, new RegExp(`^Accepted ${sent.body.delivery_id}`)).waitFor();
        await screenshot(page, 'webhooks-large-log');
      } finally {
        await ui.close();
      }
    },
  );

  it('shows a 256 KB payload as a tree at once, opens its slices on request and searches it', async () => {
    const { browser, relay } = env;
    const created = await relay.createWebhook({ name: 'big-bodies' });
    const items = Array.from({ length: 2500 }, (_, i) => ({
      id: i,
      name: `item-${i}`,
      tags: ['a', 'b'],
      nested: { deep: { value: i * 2 } },
    }));
    const head = JSON.stringify({ items }).slice(0, -1);
    const padding = 262_144 - head.length - ',"pad":""}'.length;
    const body = `${head},"pad":"${'x'.repeat(padding)}"}`;
    expect(Buffer.byteLength(body)).toBe(262_144);
    const sent = await postDelivery(created.ingressUrl, body, bearer(created.secret));
    expect(sent.status).toBe(202);
    const ui = await openUi(browser, { relay });
    try {
      const { page } = ui;
      page.setDefaultTimeout(10_000);
      await page.goto(
        `${relay.adminUrl}/#/webhooks/${created.webhook.uid}/${sent.body.delivery_id}`,
      );
      const tree = page
        .getByRole('region', { name: `Delivery ${sent.body.delivery_id}` })
        .getByRole('tabpanel');
      await tree.getByRole('button', { name: 'Show 200 more of 2,300 not shown' }).waitFor();
      await expect(tree.getByRole('button', { name: /^\d+:$/ }).count()).resolves.toBe(200);
      await tree.getByRole('button', { name: 'Show 200 more of 2,300 not shown' }).click();
      await expect(tree.getByRole('button', { name: /^\d+:$/ }).count()).resolves.toBe(400);

      await tree.getByLabel('Search the payload').fill('item-2499');
      await tree.getByText('1 match').waitFor();
      await tree.getByText('"item-2499"').waitFor();
      await expect(tree.getByRole('button', { name: /^\d+:$/ }).count()).resolves.toBe(1);
      await tree.getByRole('button', { name: 'Copy path of items[2499].name' }).click();
      await expect(page.evaluate<string>('navigator.clipboard.readText()')).resolves.toBe(
        'items[2499].name',
      );
      await screenshot(page, 'webhooks-large-payload-search');
    } finally {
      await ui.close();
    }
  });
});
