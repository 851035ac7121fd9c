import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { bearer, postDelivery, type CreatedWebhook } from '../../support/relay.js';

/** POSTs `body` as JSON to a token webhook, as its sender would; the new delivery's ID. */
export async function send(hook: CreatedWebhook, body: unknown): Promise<string> {
  const sent = await postDelivery(hook.ingressUrl, JSON.stringify(body), bearer(hook.secret));
  expect(sent.status).toBe(202);
  return sent.body.delivery_id ?? '';
}

/** Presses Tab (at most `max` times) until `target` has the focus: the keyboard's way there. */
export async function tabTo(page: Page, target: Locator, max = 80): Promise<void> {
  for (let i = 0; ; i++) {
    if ((await target.and(page.locator(':focus')).count()) === 1) return;
    if (i === max) throw new Error(`Tab never reached ${target.toString()}`);
    await page.keyboard.press('Tab');
  }
}
