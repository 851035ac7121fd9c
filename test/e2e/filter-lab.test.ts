import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { send } from './support/actions.js';
import { openUi, screenshot, useBrowser } from './support/browser.js';

const FLOW_MS = 60_000;
const POLL = { timeout: 10_000 };

const testPanel = (page: Page): Locator => page.getByRole('complementary', { name: 'Test filter' });

/** The verdict once Test filter has answered for the trigger as it is now. */
async function expectVerdict(panel: Locator, verdict: string): Promise<void> {
  const title = panel.locator('[aria-busy="false"] .verdict-title');
  await expect
    .poll(() => title.textContent({ timeout: 1_000 }).catch(() => null), POLL)
    .toBe(verdict);
}

describe('the filter lab in Chromium', () => {
  const env = useBrowser();

  it(
    'counts matches as the filter is typed, opens one in Test filter, lists every failing path, and offers seen fields',
    async () => {
      const ui = await openUi(env.browser);
      try {
        const { page, relay } = ui;
        page.setDefaultTimeout(10_000);
        const hook = await relay.createWebhook({ name: 'github-prod' });
        const ids: string[] = [];
        for (let n = 0; n < 12; n++) {
          ids.push(
            await send(hook, {
              action: n % 3 === 0 ? 'opened' : 'closed',
              pull_request: { draft: n % 2 === 0, number: n },
            }),
          );
        }

        await page.goto(`${relay.adminUrl}/#/automations/new`);
        await page.getByLabel('Name', { exact: true }).fill('triage');
        const trigger = page.getByRole('region', { name: 'Trigger 1' });
        await trigger.getByLabel('github-prod').check();
        const panel = testPanel(page);
        const lab = panel.getByRole('region', { name: /^Matches|^Counting/ });
        // No filter: every one of the 12 matches.
        await lab.getByRole('heading', { name: 'Matches 12 of the last 12 deliveries' }).waitFor();

        // Field autocomplete: the paths seen in stored payloads.
        const picker = trigger.getByLabel('Add a field seen in stored payloads');
        const options = trigger.locator('datalist option');
        const offered = async (): Promise<Array<string | null>> =>
          Promise.all((await options.all()).map((o) => o.getAttribute('value')));
        await expect
          .poll(offered, POLL)
          .toEqual(['action', 'pull_request.draft', 'pull_request.number']);
        await picker.fill('action');
        await trigger.getByRole('button', { name: 'Add', exact: true }).click();
        const filter = trigger.getByLabel('Payload filter');
        // The newest payload (n = 11) is the example: "closed".
        await expect(filter.inputValue()).resolves.toBe('{\n  "action": "closed"\n}');
        await filter.fill('{"action": "opened", "pull_request": {"draft": false}}');
        // n ≡ 0 (mod 3) and odd: 3 and 9.
        await lab.getByRole('heading', { name: 'Matches 2 of the last 12 deliveries' }).waitFor();
        await screenshot(page, 'filter-lab');

        await lab.getByRole('button', { name: 'Would trigger (2)' }).click();
        await expect.poll(() => lab.locator('tbody tr').count(), POLL).toBe(2);
        await lab.getByRole('button', { name: 'All' }).click();
        // Open n = 4 (closed, a draft) in Test filter: both keys fail, and both are listed.
        await lab.getByRole('button', { name: `open ${ids[4]} in Test filter` }).click();
        await expect(panel.getByLabel('Stored delivery').inputValue()).resolves.toBe(ids[4]);
        await expectVerdict(panel, 'Would not trigger');
        const failing = panel.getByRole('table', { name: 'Failing paths' });
        await expect(failing.locator('tbody tr').allTextContents()).resolves.toEqual([
          'action"opened""closed"',
          'pull_request.draftfalsetrue',
        ]);
        await screenshot(page, 'filter-lab-failing-paths');
      } finally {
        await ui.close();
      }
    },
    FLOW_MS,
  );
});
