import { genericSummary, joined, oneLine, text, type Payload } from './summary-text.js';

/**
 * Shopify (shopify.dev, "Webhook topics"): the topic is `X-Shopify-Topic`; an order has `name`
 * (`#1001`), `total_price` (a decimal string) and `currency`, a customer's `email`.
 */
export function shopifySummary(eventType: string | null, payload: Payload): string | null {
  const price = text(payload, 'total_price');
  const currency = text(payload, 'currency');
  const name = text(payload, 'name') ?? text(payload, 'title');
  const who = text(payload, 'email') ?? text(payload, 'customer', 'email');
  if (price === undefined && name === undefined) return genericSummary(eventType, payload);
  const amount = price === undefined ? undefined : `${price} ${currency ?? ''}`.trim();
  return oneLine(joined(eventType, name, amount, who));
}
