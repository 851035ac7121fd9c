/**
 * The operator's UI in headless Chromium (Debian's, through playwright-core), against a real relay:
 *   1. Time to the first rendered row of Recent deliveries for a webhook with 100,000 stored
 *      deliveries, against the same page for a webhook with 50 (the baseline). Target < 300 ms.
 *   2. Time to open a 256 KB payload as a tree, against a 1 KB payload. Target < 200 ms.
 * Times are taken inside the page (performance.now()), from navigation start or from the click,
 * to the animation frame in which the row or the tree is in the DOM. Medians of several rounds.
 */
import type { Page } from 'playwright-core';
import { startBenchCore } from '../bench-core.js';
import { launchBrowser, UI_DIR } from '../../test/e2e/support/browser.js';
import { seedLog } from '../../test/support/seed-log.js';
import type { BenchSuite } from './index.js';
import { firstRowMs, printMeasures, sample, untilFrame, type Sample } from './ui-browser.js';
import { sqliteDbOf } from '../../src/main/store/sqlite/sqlite-store.js';

const ROUNDS = 7;
const LARGE_LOG = 100_000;
const SMALL_LOG = 50;

type Created = { webhook: { uid: string }; secret: string; ingressUrl: string };

async function deliver(webhook: Created, body: string): Promise<string> {
  const response = await fetch(webhook.ingressUrl, {
    method: 'POST',
    headers: { authorization: `Bearer ${webhook.secret}` },
    body,
  });
  const answer = (await response.json()) as { delivery_id?: string };
  if (response.status !== 202 || !answer.delivery_id)
    throw new Error(`ingress: ${response.status}`);
  return answer.delivery_id;
}

/** A JSON body of exactly `bytes` bytes, shaped like a real event: a list of records plus padding. */
function payloadOf(bytes: number): string {
  const items = Array.from({ length: Math.floor(bytes / 110) }, (_, i) => ({
    id: i,
    name: `item-${i}`,
    tags: ['a', 'b'],
    nested: { deep: { value: i * 2 } },
  }));
  const head = JSON.stringify({ items }).slice(0, -1);
  const padding = bytes - head.length - ',"pad":""}'.length;
  return `${head},"pad":"${'x'.repeat(padding)}"}`;
}

/** Click on the row → the frame in which the payload tree shows its first node. */
async function openPayloadMs(
  page: Page,
  adminUrl: string,
  uid: string,
  id: string,
): Promise<number> {
  await page.goto('about:blank');
  await page.goto(`${adminUrl}/#/webhooks/${uid}`);
  const row = page.locator(`[data-delivery-id="${id}"]`);
  await row.waitFor();
  const started = await page.evaluate<number>(
    `(() => { const t = performance.now(); document.querySelector('[data-delivery-id="${id}"]').click(); return t; })()`,
  );
  const shown = await untilFrame(
    page,
    `document.querySelector('[aria-label="Delivery ${id}"] .json-root li')`,
  );
  return shown - started;
}

export const uiSuite: BenchSuite = {
  name: 'ui (Chromium)',
  async run() {
    const bench = await startBenchCore({ uiDir: UI_DIR });
    const { core } = bench;
    const browser = await launchBrowser();
    try {
      const small = await bench.post<Created>('/api/webhooks', { name: 'small-log' });
      const large = await bench.post<Created>('/api/webhooks', { name: 'large-log' });
      const bodies = await bench.post<Created>('/api/webhooks', { name: 'bodies' });
      seedLog(sqliteDbOf(core.store), small.webhook.uid, SMALL_LOG);
      const seeding = process.hrtime.bigint();
      seedLog(sqliteDbOf(core.store), large.webhook.uid, LARGE_LOG);
      const seededMs = Number(process.hrtime.bigint() - seeding) / 1e6;
      const kb1 = await deliver(bodies, payloadOf(1024));
      const kb256 = await deliver(bodies, payloadOf(262_144));

      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${core.adminUrl}/login?token=${core.adminToken.value}`);
      // One warm-up of each, so that the first round does not time the browser's own start.
      await firstRowMs(page, core.adminUrl!, small.webhook.uid);
      await openPayloadMs(page, core.adminUrl!, bodies.webhook.uid, kb1);

      const rows = { small: [] as Sample[], large: [] as Sample[] };
      const opens = { kb1: [] as Sample[], kb256: [] as Sample[] };
      for (let round = 0; round < ROUNDS; round++) {
        rows.small.push(sample(await firstRowMs(page, core.adminUrl!, small.webhook.uid)));
        rows.large.push(sample(await firstRowMs(page, core.adminUrl!, large.webhook.uid)));
        opens.kb1.push(sample(await openPayloadMs(page, core.adminUrl!, bodies.webhook.uid, kb1)));
        opens.kb256.push(
          sample(await openPayloadMs(page, core.adminUrl!, bodies.webhook.uid, kb256)),
        );
      }
      await context.close();

      console.log(
        `(${LARGE_LOG.toLocaleString('en-US')} deliveries seeded in ${seededMs.toFixed(0)} ms; medians of ${ROUNDS} rounds)`,
      );
      printMeasures([
        {
          what: `first row of Recent deliveries: ${LARGE_LOG.toLocaleString('en-US')} vs ${SMALL_LOG} stored`,
          baseline: rows.small,
          measured: rows.large,
          target: '< 300 ms',
        },
        {
          what: 'open a payload as a tree: 256 KB vs 1 KB',
          baseline: opens.kb1,
          measured: opens.kb256,
          target: '< 200 ms',
        },
      ]);
    } finally {
      await browser.close();
      await bench.stop();
    }
  },
};
