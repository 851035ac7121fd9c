/**
 * The operator's first screens in headless Chromium (Debian's, through playwright-core), against a
 * real relay with 20,000 deliveries in one webhook (issue 29, Build 7):
 *   1. First rows, uncached: a new browser context with its HTTP cache disabled opens the
 *      webhook's page; navigation start → the animation frame in which the first delivery row is
 *      in the DOM. Baseline: the same for a webhook with 50 deliveries. Target < 1 s.
 *   2. Typing a filter into the editor of an automation on that webhook (its lab tests the last
 *      500 deliveries): the longest task (PerformanceObserver 'longtask') from the first key to
 *      the lab's answer for the finished filter. Baseline: the same typing where the webhook has
 *      50 deliveries. Target: no task over 50 ms.
 * Wall-clock times on a shared machine: each figure is printed beside the load average it was
 * taken at. Medians. `--trace <file>` also records one uncached first screen (traceFirstRows).
 */
import type { Browser, Page } from 'playwright-core';
import { startBenchCore, type BenchCore } from '../bench-core.js';
import { launchBrowser, UI_DIR } from '../../test/e2e/support/browser.js';
import { seedLog } from '../../test/support/seed-log.js';
import type { BenchSuite } from './index.js';
import { firstRowMs, printMeasures, sample, type Sample } from './ui-browser.js';
import { sqliteDbOf } from '../../src/main/store/sqlite/sqlite-store.js';

const ROUNDS = 5;
const LARGE_LOG = 20_000;
const SMALL_LOG = 50;
/** What the operator types, key by key, with a person's pace between keys. */
const FILTER = '{"action": ["opened"], "pull_request": {"additions": {"$gt": 100}}}';
const KEY_DELAY_MS = 40;

/** A pull request as GitHub sends it (docs.github.com, "pull_request" event), trimmed. */
const pullRequest = (i: number): string =>
  JSON.stringify({
    action: i % 3 === 0 ? 'closed' : 'opened',
    number: i,
    pull_request: { number: i, title: `Fix retries ${i}`, additions: i % 400 },
    repository: { full_name: 'acme/api' },
    sender: { login: 'octocat' },
  });

interface Hook {
  uid: string;
  automationId: string;
}

async function hookWithLog(bench: BenchCore, name: string, count: number): Promise<Hook> {
  const created = await bench.post<{ webhook: { uid: string } }>('/api/webhooks', { name });
  const uid = created.webhook.uid;
  const automation = await bench.post<{ id: string }>('/api/automations', {
    name: `${name}-prs`,
    prompt: 'Review the pull request.',
    triggers: [{ provider: 'webhook', event: 'received', filter: { webhook_ids: [uid] } }],
  });
  // Last: seeding holds the event loop longer than the relay keeps an idle connection open.
  seedLog(sqliteDbOf(bench.core.store), uid, count, {
    bodyOf: pullRequest,
    eventTypeOf: () => 'pull_request',
  });
  return { uid, automationId: automation.id };
}

/** A signed-in context whose HTTP cache is off, as a first visit finds it. */
async function coldPage(browser: Browser, bench: BenchCore): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await page.goto(`${bench.core.adminUrl}/login?token=${bench.core.adminToken.value}`);
  await page.getByRole('navigation', { name: 'Sections' }).waitFor();
  await page.goto('about:blank');
  return page;
}

/** One uncached first screen: navigation start → the first delivery row. */
async function uncachedFirstRowMs(
  browser: Browser,
  bench: BenchCore,
  uid: string,
): Promise<number> {
  const page = await coldPage(browser, bench);
  try {
    return await firstRowMs(page, bench.core.adminUrl!, uid);
  } finally {
    await page.context().close();
  }
}

/**
 * `--trace <file>`: one more uncached first screen, recorded as a Chromium performance trace
 * (chrome://tracing, or DevTools' Performance panel: script compile and run, tasks, requests), and
 * its requests printed in the order they started: what the first rows waited on.
 */
async function traceFirstRows(browser: Browser, bench: BenchCore, uid: string, file: string) {
  const page = await coldPage(browser, bench);
  try {
    await browser.startTracing(page, {
      path: file,
      categories: [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'v8.execute',
        'disabled-by-default-v8.compile',
        'loading',
      ],
    });
    const rowAt = await firstRowMs(page, bench.core.adminUrl!, uid);
    await browser.stopTracing();
    const requests = await page.evaluate<
      Array<{ name: string; start: number; end: number; bytes: number }>
    >(`performance.getEntriesByType('resource').map((e) => ({
      name: e.name.replace(location.origin, ''), start: e.startTime, end: e.responseEnd, bytes: e.encodedBodySize,
    }))`);
    console.log(
      `\nTrace of one uncached first screen: ${file}; first row at ${rowAt.toFixed(0)} ms`,
    );
    console.log('| request | started | answered | bytes on the wire |');
    console.log('| --- | --- | --- | --- |');
    for (const r of requests.filter((r) => r.start < rowAt)) {
      console.log(`| ${r.name} | ${r.start.toFixed(0)} ms | ${r.end.toFixed(0)} ms | ${r.bytes} |`);
    }
  } finally {
    await page.context().close();
  }
}

/** The long tasks (ms) from the first key of FILTER to the lab's answer for it. */
async function typingLongTasks(browser: Browser, bench: BenchCore, hook: Hook): Promise<number[]> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  try {
    await page.goto(`${bench.core.adminUrl}/login?token=${bench.core.adminToken.value}`);
    await page.goto(`${bench.core.adminUrl}/#/automations/${hook.automationId}`);
    await page.getByRole('heading', { name: /^Matches \S+ of the last/ }).waitFor();
    await page.evaluate(`
      window.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
      }).observe({ type: 'longtask' });
    `);
    const filter = page.getByLabel('Payload filter').first();
    await filter.click();
    await filter.pressSequentially(FILTER, { delay: KEY_DELAY_MS });
    // Only opened pull requests with more than 100 additions: the lab's count drops.
    await page.getByRole('heading', { name: /^Matches \S+ of the last/ }).waitFor();
    await page.locator('.filter-lab:not(:has([aria-busy="true"]))').waitFor();
    return await page.evaluate<number[]>('window.__longTasks');
  } finally {
    await context.close();
  }
}

export const uiFirstHourSuite: BenchSuite = {
  name: 'ui-first-hour (Chromium, uncached first rows, typing a filter)',
  async run() {
    const bench = await startBenchCore({ uiDir: UI_DIR });
    const browser = await launchBrowser();
    try {
      const small = await hookWithLog(bench, 'small-log', SMALL_LOG);
      const large = await hookWithLog(bench, 'large-log', LARGE_LOG);
      // One warm-up: the first round must not time the browser's and the relay's own start.
      await uncachedFirstRowMs(browser, bench, small.uid);

      const rows = { small: [] as Sample[], large: [] as Sample[] };
      const longest = { small: [] as Sample[], large: [] as Sample[] };
      const over50 = { small: [] as Sample[], large: [] as Sample[] };
      for (let round = 0; round < ROUNDS; round++) {
        rows.small.push(sample(await uncachedFirstRowMs(browser, bench, small.uid)));
        rows.large.push(sample(await uncachedFirstRowMs(browser, bench, large.uid)));
      }
      for (let round = 0; round < Math.ceil(ROUNDS / 2); round++) {
        for (const [which, hook] of [
          ['small', small],
          ['large', large],
        ] as const) {
          const tasks = await typingLongTasks(browser, bench, hook);
          longest[which].push(sample(Math.max(0, ...tasks)));
          over50[which].push(sample(tasks.filter((ms) => ms > 50).length));
        }
      }

      console.log(
        `(${LARGE_LOG.toLocaleString('en-US')} vs ${SMALL_LOG} deliveries; medians of ${ROUNDS} rounds for first rows, ${Math.ceil(ROUNDS / 2)} for typing ${FILTER.length} keys)`,
      );
      printMeasures([
        {
          what: 'first delivery row, uncached, 1024×768',
          baseline: rows.small,
          measured: rows.large,
          target: '< 1000 ms',
        },
        {
          what: 'longest task while typing a filter',
          baseline: longest.small,
          measured: longest.large,
          target: '≤ 50 ms',
        },
        {
          what: 'long tasks over 50 ms while typing',
          baseline: over50.small,
          measured: over50.large,
          target: '0',
          unit: String,
        },
      ]);
      const trace = process.argv.indexOf('--trace');
      if (trace > 0 && process.argv[trace + 1]) {
        await traceFirstRows(browser, bench, large.uid, process.argv[trace + 1]!);
      }
    } finally {
      await browser.close();
      await bench.stop();
    }
  },
};
