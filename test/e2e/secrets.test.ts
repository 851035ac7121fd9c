import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { bearer, postDelivery, type TestRelay } from '../support/relay.js';
import { useBrowser, openUi, screenshot } from './support/browser.js';

async function openSecrets(page: Page): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Sections' })
    .getByRole('link', { name: 'Secrets' })
    .click();
  await page.getByRole('heading', { name: 'Secrets', level: 1 }).waitFor();
}

/** Everything the API reads back after a secret was shown once: none of it may carry the value. */
async function apiReads(relay: TestRelay): Promise<string> {
  const bodies = await Promise.all([
    relay.call('secrets.list', {}),
    relay.call('webhooks.list', {}),
    relay.call('relay.status', {}),
    relay.call('settings.get', {}),
    relay.call('factories.list', {}),
  ]);
  return JSON.stringify(bodies);
}

describe('the Secrets page in Chromium', () => {
  const env = useBrowser();

  it('states the backend and shows a generated value once, never again', async () => {
    const ui = await openUi(env.browser);
    try {
      const { page, relay } = ui;
      await openSecrets(page);
      const backend = page.getByText('Secret values are kept in');
      await expect(backend.textContent()).resolves.toContain('encrypted file');
      await page.getByText('No team secrets yet').waitFor();

      await page.getByRole('button', { name: 'Create secret' }).click();
      const form = page.getByRole('dialog', { name: 'Create secret' });
      await form.getByLabel('Name').fill('deploy token');
      // The relay's own rule, said at the field as it is typed; Create waits.
      await form.getByText('can’t contain spaces').waitFor();
      expect(await form.getByRole('button', { name: 'Create' }).isDisabled()).toBe(true);
      await form.getByLabel('Name').fill('deploy-token');
      await form.getByRole('button', { name: 'Create' }).click();

      const shown = page.getByRole('dialog', { name: 'Secret created' });
      const value = (await shown.getByTestId('one-time-secret').textContent()) ?? '';
      expect(value.length).toBeGreaterThanOrEqual(20);
      await expect(shown.textContent()).resolves.toContain('You will not see this secret again.');
      await screenshot(page, 'secrets-one-time-value');
      await shown.getByRole('button', { name: 'Done' }).click();
      await shown.waitFor({ state: 'detached' });

      const row = page.getByRole('row', { name: /deploy-token/ });
      await row.waitFor();
      await expect(row.textContent()).resolves.toContain('never');
      expect(await page.locator('body').textContent()).not.toContain(value);
      expect(await apiReads(relay)).not.toContain(value);
      await page.reload();
      await page.getByRole('row', { name: /deploy-token/ }).waitFor();
      expect(await page.locator('body').textContent()).not.toContain(value);
      expect(await page.content()).not.toContain(value);
    } finally {
      await ui.close();
    }
  });

  it('rotates for every webhook at once, and deletes only a secret no webhook uses', async () => {
    const ui = await openUi(env.browser);
    try {
      const { page, relay } = ui;
      const created = await relay.call('secrets.create', { name: 'shared-token' });
      const oldValue = created.value;
      const orders = await relay.createWebhook({ name: 'orders', secretName: 'shared-token' });
      const billing = await relay.createWebhook({ name: 'billing', secretName: 'shared-token' });
      expect(orders.secret).toBeNull();
      await openSecrets(page);

      const row = page.getByRole('row', { name: /shared-token/ });
      await row.getByRole('link', { name: 'orders' }).waitFor();
      await expect(row.getByRole('link', { name: 'billing' }).getAttribute('href')).resolves.toBe(
        `#/webhooks/${billing.webhook.uid}`,
      );
      const deleteButton = row.getByRole('button', { name: 'Delete shared-token' });
      await expect(deleteButton.isDisabled()).resolves.toBe(true);
      await expect(deleteButton.getAttribute('title')).resolves.toContain(
        'In use by billing, orders',
      );
      const refused = await relay.callError('secrets.delete', { name: 'shared-token' });
      expect(refused.code).toBe('conflict');
      expect(refused.message).toContain('orders');
      await screenshot(page, 'secrets-page');

      await row.getByRole('button', { name: 'Rotate shared-token' }).click();
      const confirm = page.getByRole('dialog', { name: 'Rotate "shared-token"?' });
      const confirmText = await confirm.textContent();
      expect(confirmText).toContain('2 webhooks switch to the new value at once');
      expect(confirmText).toContain('orders');
      expect(confirmText).toContain('billing');
      await screenshot(page, 'secrets-rotate-confirm');
      await confirm.getByRole('button', { name: 'Rotate', exact: true }).click();
      const shown = page.getByRole('dialog', { name: 'Secret rotated' });
      const newValue = (await shown.getByTestId('one-time-secret').textContent()) ?? '';
      expect(newValue).not.toBe(oldValue);
      expect(newValue.length).toBeGreaterThanOrEqual(20);
      await shown.getByRole('button', { name: 'Done' }).click();
      await shown.waitFor({ state: 'detached' });
      expect(await page.locator('body').textContent()).not.toContain(newValue);
      expect(await apiReads(relay)).not.toContain(newValue);

      const before = await postDelivery(orders.ingressUrl, '{"n":1}', {
        'content-type': 'application/json',
        ...bearer(oldValue),
      });
      expect(before.status).toBe(401);
      const after = await postDelivery(orders.ingressUrl, '{"n":2}', {
        'content-type': 'application/json',
        ...bearer(newValue),
      });
      expect(after.status).toBe(202);

      // Live: once no webhook uses it, Delete is offered without a reload.
      for (const uid of [orders.webhook.uid, billing.webhook.uid])
        await relay.call('webhooks.delete', { uid });
      await row.getByText('no webhook').waitFor();
      await expect(deleteButton.isEnabled()).resolves.toBe(true);
      await deleteButton.click();
      const deleteConfirm = page.getByRole('dialog', { name: 'Delete "shared-token"?' });
      await expect(deleteConfirm.textContent()).resolves.toContain('cannot be undone');
      await deleteConfirm.getByRole('button', { name: 'Delete', exact: true }).click();
      await row.waitFor({ state: 'detached' });
      await page.getByText('No team secrets yet').waitFor();
      const listed = await relay.call('secrets.list', {});
      expect(listed.items).toEqual([]);
    } finally {
      await ui.close();
    }
  });
});
