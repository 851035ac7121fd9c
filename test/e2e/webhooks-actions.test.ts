import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createAutomation, webhookTrigger } from '../support/automations.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../support/relay.js';
import { openUi, screenshot, UI_DIR, useBrowserAndRelay } from './support/browser.js';
import {
  deliveryList,
  deliveryRow,
  detailPane,
  oneTime,
  openWebhookTab,
} from './support/webhooks-ui.js';

/** Opens the UI on one webhook's detail pane (or one of its deliveries). */
async function openOn(page: Page, relay: TestRelay, ...parts: string[]): Promise<void> {
  await page.goto(`${relay.adminUrl}/#/webhooks/${parts.join('/')}`);
}

describe('Webhooks page actions in Chromium', () => {
  const env = useBrowserAndRelay();

  it('disables and enables with the toggle, and rotates the secret with no overlap', async () => {
    const { browser, relay } = env;
    const created = await relay.createWebhook({ name: 'toggle-me' });
    const url = created.ingressUrl;
    const oldSecret = created.secret!;
    const ui = await openUi(browser, { relay });
    try {
      const { page } = ui;
      page.setDefaultTimeout(10_000);
      await openOn(page, relay, created.webhook.uid);
      const pane = detailPane(page, 'toggle-me');
      const toggle = pane.getByRole('switch', { name: 'Enabled: toggle-me' });
      await toggle.click();
      await page.getByText('toggle-me is disabled: senders get 404').waitFor();
      await expect(toggle.isChecked()).resolves.toBe(false);
      expect((await postDelivery(url, '{"a":1}', bearer(oldSecret))).status).toBe(404);
      await pane.getByText('Disabled: senders get 404 until you enable it again.').waitFor();
      await toggle.click();
      await page.getByText('toggle-me is enabled').waitFor();
      expect((await postDelivery(url, '{"a":2}', bearer(oldSecret))).status).toBe(202);

      await pane.getByRole('button', { name: 'Rotate secret' }).click();
      const confirm = page.getByRole('dialog', { name: 'Rotate secret' });
      await expect(confirm.textContent()).resolves.toContain('stops working at once');
      await confirm.getByRole('button', { name: 'Rotate secret' }).click();
      const shown = page.getByRole('dialog', { name: 'New secret for toggle-me' });
      await shown.waitFor();
      const newSecret = await oneTime(page, 'secret');
      expect(newSecret).not.toBe(oldSecret);
      await expect(shown.textContent()).resolves.toContain('You will not see this secret again.');
      expect((await postDelivery(url, '{"a":3}', bearer(oldSecret))).status).toBe(401);
      expect((await postDelivery(url, '{"a":4}', bearer(newSecret))).status).toBe(202);
      await shown.getByRole('button', { name: 'Done' }).click();
      await shown.waitFor({ state: 'detached' });

      // The delivery ID header is edited in place, in the Settings tab.
      await openWebhookTab(page, 'Settings');
      await pane.getByRole('button', { name: 'Edit delivery ID header' }).click();
      await pane.getByLabel('Delivery ID header').fill('X-Request-Id');
      await pane.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Delivery ID header set to X-Request-Id.').waitFor();
      await pane.getByText('X-Request-Id', { exact: true }).waitFor();

      // Rename (not on a managed factory): automations select by UID, so nothing breaks.
      await pane.getByRole('button', { name: 'Edit name' }).click();
      await pane.getByLabel('Name', { exact: true }).fill('toggled');
      await page.keyboard.press('Enter');
      await page.getByText('Renamed to toggled.').waitFor();
      await detailPane(page, 'toggled').getByRole('heading', { name: 'toggled' }).waitFor();
      await page.getByRole('row', { name: /toggled/ }).waitFor();
    } finally {
      await ui.close();
    }
  });

  it('names the automations that will stop firing before it deletes', async () => {
    const { browser, relay } = env;
    const created = await relay.createWebhook({ name: 'doomed' });
    const uid = created.webhook.uid;
    await createAutomation(relay, { name: 'triage', triggers: [webhookTrigger([uid])] });
    await createAutomation(relay, { name: 'notify', triggers: [webhookTrigger([uid])] });
    const ui = await openUi(browser, { relay });
    try {
      const { page } = ui;
      page.setDefaultTimeout(10_000);
      await openOn(page, relay, uid);
      await detailPane(page, 'doomed').getByRole('button', { name: 'Delete' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete doomed?' });
      await confirm
        .getByText(/^2 automations will stop firing: (triage, notify|notify, triage)$/)
        .waitFor();
      await expect(confirm.textContent()).resolves.toContain('Senders get 404 at once.');
      await expect(confirm.textContent()).resolves.toContain(
        'They stay visible; point their triggers at another webhook or remove them.',
      );
      await screenshot(page, 'webhooks-delete-confirm');
      await confirm.getByRole('button', { name: 'Delete webhook' }).click();
      await page.getByText('doomed was deleted; 2 automations no longer fire from it.').waitFor();
      // The list reloads after the toast: the row goes then.
      await page.getByRole('row', { name: /doomed/ }).waitFor({ state: 'detached' });
      expect((await postDelivery(created.ingressUrl, '{}', bearer(created.secret))).status).toBe(
        404,
      );

      // One automation reads in the singular, in the confirmation and in the toast.
      const single = await relay.createWebhook({ name: 'lonely' });
      await createAutomation(relay, {
        name: 'solo',
        triggers: [webhookTrigger([single.webhook.uid])],
      });
      await openOn(page, relay, single.webhook.uid);
      await detailPane(page, 'lonely').getByRole('button', { name: 'Delete' }).click();
      const confirmOne = page.getByRole('dialog', { name: 'Delete lonely?' });
      await confirmOne.getByText(/^1 automation will stop firing: solo$/).waitFor();
      await expect(confirmOne.textContent()).resolves.toContain(
        'solo. It stays visible; point its triggers at another webhook or remove it.',
      );
      await confirmOne.getByRole('button', { name: 'Delete webhook' }).click();
      await page.getByText('lonely was deleted; 1 automation no longer fires from it.').waitFor();
    } finally {
      await ui.close();
    }
  });

  it('replays an accepted delivery and tests it against automations', async () => {
    const { browser, relay } = env;
    const created = await relay.createWebhook({ name: 'pulls' });
    const uid = created.webhook.uid;
    await createAutomation(relay, {
      name: 'on-open',
      triggers: [webhookTrigger([uid], { action: ['opened'] })],
    });
    await createAutomation(relay, {
      name: 'on-close',
      triggers: [webhookTrigger([uid], { action: ['closed'] })],
    });
    const sent = await postDelivery(
      created.ingressUrl,
      '{"action":"opened"}',
      bearer(created.secret),
    );
    const id = sent.body.delivery_id!;
    const ui = await openUi(browser, { relay });
    try {
      const { page } = ui;
      page.setDefaultTimeout(10_000);
      await openOn(page, relay, uid, id);
      const detail = page.getByRole('region', { name: `Delivery ${id}` });
      await detail.getByRole('link', { name: /^run_/ }).waitFor();

      await detail.getByRole('button', { name: 'Replay' }).click();
      const toast = page.getByText(/^Replayed as dlv_\w+: 1 run queued \(run_\w+\)\.$/);
      await toast.waitFor();
      const replayId = /Replayed as (dlv_\w+)/.exec((await toast.textContent()) ?? '')![1]!;
      await deliveryRow(page, new RegExp(`^Accepted ${replayId}.*replay of ${id}`)).waitFor();
      await expect(deliveryList(page).getByRole('listitem').count()).resolves.toBe(2);

      const automation = detail.getByLabel('Automation', { exact: true });
      await automation.selectOption({ label: 'on-open' });
      await detail.getByRole('button', { name: 'Test filter' }).click();
      const verdict = detail.getByRole('region', { name: 'Test filter result' });
      await expect(verdict.getByText('Would trigger', { exact: true }).textContent()).resolves.toBe(
        'Would trigger',
      );
      await automation.selectOption({ label: 'on-close' });
      await detail.getByRole('button', { name: 'Test filter' }).click();
      await verdict.getByText('Would not trigger').waitFor();
      await expect(verdict.textContent()).resolves.toContain('action');
      await screenshot(page, 'webhooks-test-against-automation');
    } finally {
      await ui.close();
    }
  });

  it('creates a signature webhook and reuses an existing team secret without showing it', async () => {
    const { browser, relay } = env;
    await relay.call('secrets.create', { name: 'shared-token' });
    const ui = await openUi(browser, { relay });
    try {
      const { page } = ui;
      page.setDefaultTimeout(10_000);
      await page.getByRole('button', { name: 'Add webhook' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Add webhook' });
      await dialog.getByLabel('Name', { exact: true }).fill('gh');
      await dialog.getByRole('radio', { name: /Provider signature/ }).check();
      await dialog.getByLabel('Provider scheme').selectOption('hmac-sha256');
      await dialog.getByLabel('Signature header').fill('bad header!');
      await dialog.getByLabel('Signing secret', { exact: true }).fill('s3cret');
      // Said as typed, by the relay's own rule; Create waits until it is fixed.
      await dialog
        .getByText('Signature header can’t contain spaces or “!”: try “bad-header”.')
        .waitFor();
      expect(await dialog.getByRole('button', { name: 'Create' }).isDisabled()).toBe(true);
      await screenshot(page, 'webhooks-add-signature-error');
      await dialog.getByLabel('Signature header').fill('X-Signature');
      await dialog.getByRole('button', { name: 'Create' }).click();
      const ready = page.getByRole('dialog', { name: 'Webhook gh is ready' });
      await expect(oneTime(page, 'secret')).resolves.toBe('s3cret');
      await expect(ready.getByTestId('sample-command').textContent()).resolves.toContain(
        'hookport send',
      );
      await ready.getByRole('button', { name: 'Done' }).click();

      await page.getByRole('button', { name: 'Add webhook' }).first().click();
      await dialog.getByLabel('Name', { exact: true }).fill('reuser');
      await dialog.getByRole('radio', { name: 'Existing team secret' }).check();
      await dialog.getByLabel('Team secret', { exact: true }).selectOption('shared-token');
      await dialog.getByRole('button', { name: 'Create' }).click();
      const reused = page.getByRole('dialog', { name: 'Webhook reuser is ready' });
      await reused.getByText('The secret is not shown: it is an existing team secret.').waitFor();
      await expect(reused.getByTestId('one-time-secret').count()).resolves.toBe(0);
    } finally {
      await ui.close();
    }
  });

  it('shows a view token the same page with write controls disabled and the reason', async () => {
    const { browser, relay } = env;
    const minted = await relay.api<{ value: string }>('POST', '/api/tokens', {
      name: 'reader',
      role: 'view',
    });
    const ui = await openUi(browser, { relay, token: minted.body.value });
    try {
      const { page } = ui;
      page.setDefaultTimeout(10_000);
      const add = page.getByRole('button', { name: 'Add webhook' }).first();
      await add.waitFor();
      await expect(add.isDisabled()).resolves.toBe(true);
      await page.getByText('Your token has the "view" role').first().waitFor();
      await page.getByRole('row', { name: /pulls/ }).click();
      const pane = detailPane(page, 'pulls');
      await expect(pane.getByRole('button', { name: 'Rotate secret' }).isDisabled()).resolves.toBe(
        true,
      );
      await expect(pane.getByRole('switch', { name: 'Enabled: pulls' }).isDisabled()).resolves.toBe(
        true,
      );
      await deliveryRow(page, /Accepted/)
        .first()
        .click();
      await expect(
        page.getByRole('button', { name: 'Replay', exact: true }).isDisabled(),
      ).resolves.toBe(true);
    } finally {
      await ui.close();
    }
  });

  it('says why Add webhook is disabled once the factory has 20 webhooks', async () => {
    const { browser } = env;
    const full = await startTestRelay({ uiDir: UI_DIR });
    try {
      for (let i = 1; i <= 20; i++) await full.createWebhook({ name: `hook-${i}` });
      const ui = await openUi(browser, { relay: full });
      try {
        const { page } = ui;
        page.setDefaultTimeout(10_000);
        await expect(page.getByLabel('20 of 20 webhooks').textContent()).resolves.toBe('20/20');
        await expect(page.getByRole('button', { name: 'Add webhook' }).isDisabled()).resolves.toBe(
          true,
        );
        await page
          .getByText(
            'This factory has 20 webhooks, the most it may have: delete one to add another.',
          )
          .waitFor();
        await screenshot(page, 'webhooks-list-at-limit');
      } finally {
        await ui.close();
      }
    } finally {
      await full.stop();
    }
  });
});
