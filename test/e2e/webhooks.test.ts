import { describe, expect, it } from 'vitest';
import { bearer, postDelivery } from '../support/relay.js';
import { useBrowser, openUi, screenshot } from './support/browser.js';
import {
  addWebhookButton,
  clipboardText,
  deliveryList,
  focusedText,
  locationHash,
  deliveryRow,
  detailPane,
  oneTime,
  recentDeliveries,
} from './support/webhooks-ui.js';

const LIMIT = 262_144;

describe('the Webhooks page in Chromium', () => {
  const env = useBrowser();

  it('creates a token webhook, shows URL and secret once, and logs every kind of delivery live', async () => {
    const ui = await openUi(env.browser);
    try {
      const { page } = ui;
      page.setDefaultTimeout(10_000);
      await page.getByText('No webhooks yet.').waitFor();
      await expect(page.getByLabel('0 of 20 webhooks').textContent()).resolves.toBe('0/20');

      await addWebhookButton(page).click();
      const dialog = page.getByRole('dialog', { name: 'Add webhook' });
      await dialog.getByLabel('Name', { exact: true }).fill('github-prod');
      await expect(dialog.getByRole('radio', { name: /Bearer token/ }).isChecked()).resolves.toBe(
        true,
      );
      await expect(
        dialog.getByLabel('Name of the new secret (optional)').getAttribute('placeholder'),
      ).resolves.toBe('webhook-github-prod');
      await screenshot(page, 'webhooks-add-dialog');
      await dialog.getByRole('button', { name: 'Create' }).click();

      const ready = page.getByRole('dialog', { name: 'Webhook github-prod is ready' });
      await ready.waitFor();
      const url = await oneTime(page, 'ingress-url');
      const secret = await oneTime(page, 'secret');
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks\/w\/wh_[a-z0-9]{24}$/);
      expect(secret.length).toBeGreaterThanOrEqual(32);
      await expect(ready.textContent()).resolves.toContain('You will not see this secret again.');
      const sample = await page.getByTestId('sample-command').textContent();
      expect(sample).toContain(`curl -i -X POST '${url}'`);
      expect(sample).toContain(`Authorization: Bearer ${secret}`);
      await ready.getByRole('button', { name: 'Copy secret' }).click();
      await expect(clipboardText(page)).resolves.toBe(secret);
      await screenshot(page, 'webhooks-one-time-panel');
      await ready.getByRole('button', { name: 'Done' }).click();

      const pane = detailPane(page, 'github-prod');
      await pane.waitFor();
      const uid = url.split('/').at(-1)!;
      await expect(pane.textContent()).resolves.toContain(uid);
      expect(await locationHash(page)).toBe(`#/webhooks/${uid}`);
      await recentDeliveries(page).getByText('No deliveries yet.').waitFor();

      // Accepted, then the same event again (Duplicate), then each refusal.
      // Written out by hand: a number past 2^53 must reach the tree digit for digit.
      const body =
        '{"action":"opened","pull_request":{"number":7,"title":"Fix the flaky test","labels":["ci","bug"]},"big":12345678901234567890}';
      const headers = { ...bearer(secret), 'x-service-delivery-id': 'evt-1' };
      const accepted = await postDelivery(url, body, headers);
      expect(accepted.status).toBe(202);
      const acceptedId = accepted.body.delivery_id!;
      await deliveryRow(page, new RegExp(`Accepted ${acceptedId}`)).waitFor();

      const duplicate = await postDelivery(url, body, headers);
      expect(duplicate.status).toBe(202);
      await deliveryRow(
        page,
        new RegExp(`Duplicate ${duplicate.body.delivery_id}.*\\(of ${acceptedId}\\)`),
      ).waitFor();

      expect((await postDelivery(url, '{"a":1}', bearer('wrong-token'))).status).toBe(401);
      await deliveryRow(page, /Rejected \(auth\)/).waitFor();
      expect((await postDelivery(url, '{not json', bearer(secret))).status).toBe(400);
      await deliveryRow(page, /Rejected \(invalid JSON\)/).waitFor();
      expect((await postDelivery(url, Buffer.alloc(LIMIT + 1, 0x20), bearer(secret))).status).toBe(
        413,
      );
      await deliveryRow(page, /Rejected \(too large\)/).waitFor();

      // Newest first: the too-large refusal is on top, the accepted delivery at the bottom.
      const rows = deliveryList(page).getByRole('listitem');
      await expect(rows.count()).resolves.toBe(5);
      await expect(rows.first().textContent()).resolves.toContain('Rejected (too large)');
      // Rounded, 262,145 bytes would read "256 KB": within the limit, to the eye.
      await expect(rows.first().textContent()).resolves.toContain('262,145 B');
      await expect(rows.last().textContent()).resolves.toContain(acceptedId);
      await expect(rows.nth(2).textContent()).resolves.toMatch(/reason: /);
      // Beside the list (1400 px) the detail pane is narrow, and under it (1024 px) the list is
      // not much wider: each reason is read in full, never cut to "reason: b…".
      for (const viewport of [
        { width: 1024, height: 768 },
        { width: 1400, height: 900 },
      ]) {
        await page.setViewportSize(viewport);
        for (const label of ['auth', 'invalid JSON', 'too large']) {
          const note = deliveryRow(page, new RegExp(`Rejected \\(${label}\\)`)).locator(
            '.delivery-note',
          );
          const cut = note.evaluate(
            (el: { scrollWidth: number; clientWidth: number }) => el.scrollWidth > el.clientWidth,
          );
          await expect(cut).resolves.toBe(false);
        }
        await screenshot(page, `webhooks-deliveries-${viewport.width}`);
      }

      // The list's sparkline says the same in words, and the last delivery is just now.
      const listRow = page.getByRole('row', { name: /github-prod/ });
      await listRow
        .getByRole('img', {
          name: /^5 deliveries in 24 h: 1 Accepted, 1 Duplicate, 1 Rejected \(auth\), 1 Rejected \(invalid JSON\), 1 Rejected \(too large\)$/,
        })
        .waitFor();
      await expect(listRow.textContent()).resolves.toContain('just now');
      await screenshot(page, 'webhooks-detail-with-deliveries');

      // Expanding the accepted delivery shows the payload as a tree and as raw text.
      await deliveryRow(page, new RegExp(`^Accepted ${acceptedId}`)).click();
      const detail = page.getByRole('region', { name: `Delivery ${acceptedId}` });
      await detail.waitFor();
      expect(await locationHash(page)).toBe(`#/webhooks/${uid}/${acceptedId}`);
      const tree = detail.getByRole('tabpanel');
      await tree.getByText('"Fix the flaky test"').waitFor();
      await expect(tree.textContent()).resolves.toContain('12345678901234567890');
      await expect(detail.textContent()).resolves.toContain('evt-1');
      await expect(detail.textContent()).resolves.toContain('X-Service-Delivery-Id');
      await tree.getByRole('button', { name: 'labels:' }).click();
      await tree.getByText('"bug"').waitFor();
      await tree.getByRole('button', { name: 'Copy path of pull_request.labels[1]' }).click();
      await expect(clipboardText(page)).resolves.toBe('pull_request.labels[1]');
      await tree.getByRole('button', { name: 'Copy value of pull_request', exact: true }).click();
      await expect(clipboardText(page)).resolves.toBe(
        '{"number":7,"title":"Fix the flaky test","labels":["ci","bug"]}',
      );
      await tree.getByLabel('Search the payload').fill('flaky');
      await tree.getByText('1 match').waitFor();
      await expect(tree.getByRole('button', { name: 'action:' }).count()).resolves.toBe(0);
      await expect(tree.textContent()).resolves.not.toContain('opened');
      // "labels" matches by its key, so it shows all its items; it must open to show "bug" too.
      await tree.getByLabel('Search the payload').fill('b');
      await tree.getByText('4 matches').waitFor();
      await tree.getByText('"bug"').waitFor();
      await expect(
        tree.getByRole('button', { name: 'labels:' }).getAttribute('aria-expanded'),
      ).resolves.toBe('true');
      await screenshot(page, 'webhooks-payload-search-opens-matches');
      await tree.getByLabel('Search the payload').fill('');
      await screenshot(page, 'webhooks-expanded-payload');
      await page.emulateMedia({ colorScheme: 'dark' });
      await screenshot(page, 'webhooks-expanded-payload-dark');
      await page.emulateMedia({ colorScheme: 'light' });
      await detail.getByRole('tab', { name: 'Raw' }).click();
      await expect(detail.getByTestId('payload-raw').textContent()).resolves.toBe(body);

      // Rejected and duplicate entries keep metadata only.
      await deliveryRow(page, /Rejected \(auth\)/).click();
      const rejected = page.getByRole('region', { name: /^Delivery dlv_/ });
      await rejected.getByText('No payload is stored for rejected deliveries').waitFor();
      await expect(rejected.textContent()).resolves.toContain('Client address127.0.0.1');
      await deliveryRow(page, /Rejected \(too large\)/).click();
      const tooLarge = page.getByRole('region', { name: /^Delivery dlv_/ });
      // One size format in the list and the detail: exact bytes, as it is over the limit.
      await tooLarge.getByText('262,145 B (over the 262,144-byte limit)').waitFor();
      await screenshot(page, 'webhooks-too-large-size');
      await deliveryRow(page, /Duplicate/).click();
      const dup = page.getByRole('region', { name: `Delivery ${duplicate.body.delivery_id}` });
      await dup.getByText('No payload is stored for duplicate deliveries').waitFor();
      await dup.getByRole('link', { name: acceptedId }).first().click();
      await page.getByRole('region', { name: `Delivery ${acceptedId}` }).waitFor();

      // Several labels at once, the search box, and exact totals.
      const recent = recentDeliveries(page);
      const labels = recent.getByRole('group', { name: 'Labels' });
      await labels.getByRole('button', { name: 'Rejected (auth)' }).click();
      await recent.getByText('1 of 5 deliveries, newest first · live').waitFor();
      await labels.getByRole('button', { name: 'Duplicate' }).click();
      await recent.getByText('2 of 5 deliveries, newest first · live').waitFor();
      await recent.getByRole('button', { name: 'Clear filters' }).click();
      await recent.getByText('5 deliveries, newest first · live').waitFor();
      await recent.getByLabel('Search deliveries').fill('evt-1');
      await recent.getByText('2 of 5 deliveries, newest first · live').waitFor();
      // Part of an ID, and a word from a payload.
      await recent.getByLabel('Search deliveries').fill(acceptedId.slice(-12));
      await recent.getByText('1 of 5 deliveries, newest first · live').waitFor();
      await expect(deliveryList(page).getByRole('listitem').count()).resolves.toBe(1);
      await recent.getByLabel('Search deliveries').fill('flaky test');
      await recent.getByText('1 of 5 deliveries, newest first · live').waitFor();
      await deliveryRow(page, new RegExp(`^Accepted ${acceptedId}`)).waitFor();
    } finally {
      await ui.close();
    }
  });

  it('adds a webhook with the keyboard alone, and shows a server error beside its field', async () => {
    const ui = await openUi(env.browser);
    try {
      const { page } = ui;
      page.setDefaultTimeout(10_000);
      const add = addWebhookButton(page);
      await add.waitFor();
      for (let i = 0; i < 20 && !(await focusedText(page)).includes('Add webhook'); i++) {
        await page.keyboard.press('Tab');
      }
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Add webhook' });
      await dialog.waitFor();
      await page.keyboard.type('cron-nightly');
      await page.keyboard.press('Tab');
      await page.keyboard.press('ArrowDown');
      await expect(dialog.getByRole('radio', { name: /URL token/ }).isChecked()).resolves.toBe(
        true,
      );
      await page.keyboard.press('Enter');
      await page.getByRole('dialog', { name: 'Webhook cron-nightly is ready' }).waitFor();
      const url = await oneTime(page, 'ingress-url');
      const secret = await oneTime(page, 'secret');
      expect(url.endsWith(`/${secret}`)).toBe(true);
      await page.keyboard.press('Escape');
      const pane = detailPane(page, 'cron-nightly');
      await pane.waitFor();
      await expect(pane.getByTestId('ingress-url').textContent()).resolves.toMatch(/\/\{token\}$/);
      expect((await postDelivery(url, '{"nightly":true}')).status).toBe(202);
      await deliveryRow(page, /Accepted/).waitFor();

      // The same name again: the server's answer stands next to the Name field.
      await add.focus();
      await page.keyboard.press('Enter');
      await page.keyboard.type('cron-nightly');
      await page.keyboard.press('Enter');
      const nameField = dialog.getByLabel('Name', { exact: true });
      await dialog.getByText('a webhook named "cron-nightly" already exists').waitFor();
      await expect(nameField.getAttribute('aria-invalid')).resolves.toBe('true');
      // Corrected, the error goes as the operator types, not at the next Create.
      await page.keyboard.type('-2');
      await dialog.getByText('already exists').waitFor({ state: 'detached' });
      await expect(nameField.getAttribute('aria-invalid')).resolves.toBeNull();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });

      // Rows of the list are reachable and selectable with the keyboard too.
      const row = page.getByRole('row', { name: /cron-nightly/ });
      await row.focus();
      await page.keyboard.press('Enter');
      await expect(row.getAttribute('aria-selected')).resolves.toBe('true');
      // On a narrow window the detail pane goes below the list.
      await page.setViewportSize({ width: 900, height: 900 });
      await screenshot(page, 'webhooks-narrow');
    } finally {
      await ui.close();
    }
  });
});
