import type { Locator, Page } from 'playwright-core';

/** The Webhooks page's parts, found the way a person finds them: by role and name. */
export const addWebhookButton = (page: Page): Locator =>
  page.getByRole('button', { name: 'Add webhook' }).first();

export const detailPane = (page: Page, name: string): Locator =>
  page.getByRole('region', { name: `Webhook ${name}` });

export const recentDeliveries = (page: Page): Locator =>
  page.getByRole('region', { name: 'Recent deliveries' });

export const deliveryList = (page: Page): Locator =>
  recentDeliveries(page).getByRole('list', { name: 'Deliveries, newest first' });

export const deliveryRow = (page: Page, text: string | RegExp): Locator =>
  deliveryList(page).getByRole('button', { name: text });

export async function oneTime(page: Page, label: 'ingress-url' | 'secret'): Promise<string> {
  const text = await page.getByTestId(`one-time-${label}`).textContent();
  if (!text) throw new Error(`no one-time ${label} shown`);
  return text;
}

/** Add webhook through the dialog; returns what the one-time panel showed. */
export async function addWebhookInUi(
  page: Page,
  name: string,
  mode: 'Bearer token' | 'URL token' = 'Bearer token',
): Promise<{ url: string; secret: string }> {
  await addWebhookButton(page).click();
  const dialog = page.getByRole('dialog', { name: 'Add webhook' });
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByRole('radio', { name: new RegExp(mode) }).check();
  await dialog.getByRole('button', { name: 'Create' }).click();
  await page.getByRole('dialog', { name: `Webhook ${name} is ready` }).waitFor();
  const result = { url: await oneTime(page, 'ingress-url'), secret: await oneTime(page, 'secret') };
  await page.getByRole('button', { name: 'Done' }).click();
  await detailPane(page, name).waitFor();
  return result;
}

export const clipboardText = (page: Page): Promise<string> =>
  page.evaluate<string>('navigator.clipboard.readText()');

export const locationHash = (page: Page): Promise<string> =>
  page.evaluate<string>('window.location.hash');

/** Text of whatever has keyboard focus. */
export const focusedText = (page: Page): Promise<string> =>
  page.evaluate<string>(
    'document.activeElement === document.body ? "" : (document.activeElement?.textContent ?? "")',
  );

/** Opens one of a webhook page's tabs: Deliveries (the default), Settings, Volume, Refused. */
export async function openWebhookTab(
  page: Page,
  tab: 'Deliveries' | 'Settings' | 'Volume' | 'Refused',
): Promise<void> {
  await page
    .getByRole('tablist', { name: 'Webhook sections' })
    .getByRole('tab', { name: tab })
    .click();
}
