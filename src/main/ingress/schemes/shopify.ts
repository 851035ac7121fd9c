import { shopify as provider } from '../../../shared/providers/shopify.js';
import { defineHmacScheme } from './define-hmac-scheme.js';
import { hasHeader, optionalHeader, requireHeader } from './headers.js';
import type { DistinctHeaders } from './scheme.js';
import { fail } from './verification.js';
import { genericSummary, joined, oneLine, type Payload, text } from './summaries/summary-text.js';

/**
 * Shopify (shopify.dev, "Verify webhooks"): `X-Shopify-Hmac-Sha256` holds the base64 HMAC-SHA256
 * of the body keyed with the app's client secret. No signed timestamp. Delivery:
 * `X-Shopify-Webhook-Id`. Shopify's Events API sends the same headers without the `X-`
 * (`Shopify-Hmac-Sha256`, `Shopify-Webhook-Id`); either family is accepted, never both at once.
 */

const SIGNATURE_HEADER = 'X-Shopify-Hmac-Sha256';
const EVENTS_SIGNATURE_HEADER = 'Shopify-Hmac-Sha256';
const DELIVERY_HEADER = 'X-Shopify-Webhook-Id';
const EVENTS_DELIVERY_HEADER = 'Shopify-Webhook-Id';
const TOPIC_HEADER = 'X-Shopify-Topic';

/** The shop and API version `send --event` claims; `--header` replaces either. */
export const SHOPIFY_SHOP_DOMAIN = 'hookport-send.myshopify.com';
export const SHOPIFY_API_VERSION = '2025-07';

const eventHeaders = (topic: string): Record<string, string> => ({
  [TOPIC_HEADER]: topic,
  'X-Shopify-Shop-Domain': SHOPIFY_SHOP_DOMAIN,
  'X-Shopify-API-Version': SHOPIFY_API_VERSION,
});

function signatureHeader(headers: DistinctHeaders): string {
  const classic = hasHeader(headers, SIGNATURE_HEADER);
  const events = hasHeader(headers, EVENTS_SIGNATURE_HEADER);
  if (classic && events) fail(`both ${SIGNATURE_HEADER} and ${EVENTS_SIGNATURE_HEADER} headers`);
  return events ? EVENTS_SIGNATURE_HEADER : SIGNATURE_HEADER;
}

/**
 * Shopify (shopify.dev, "Webhook topics"): the topic is `X-Shopify-Topic`; an order has `name`
 * (`#1001`), `total_price` (a decimal string) and `currency`, a customer's `email`.
 */
function shopifySummary(eventType: string | null, payload: Payload): string | null {
  const price = text(payload, 'total_price');
  const currency = text(payload, 'currency');
  const name = text(payload, 'name') ?? text(payload, 'title');
  const who = text(payload, 'email') ?? text(payload, 'customer', 'email');
  if (price === undefined && name === undefined) return genericSummary(eventType, payload);
  const amount = price === undefined ? undefined : `${price} ${currency ?? ''}`.trim();
  return oneLine(joined(eventType, name, amount, who));
}

export const shopify = defineHmacScheme({
  provider,
  summarize: shopifySummary,
  eventHeaders,
  encoding: 'base64',
  toleranceSeconds: null,
  read: ({ headers, body }) => {
    const name = signatureHeader(headers);
    const deliveryId =
      optionalHeader(headers, DELIVERY_HEADER) ?? optionalHeader(headers, EVENTS_DELIVERY_HEADER);
    return {
      candidates: [requireHeader(headers, name)],
      content: [body],
      timestamp: null,
      ...(deliveryId === null ? {} : { deliveryId }),
    };
  },
  write: ({ body, sign }) => ({ [SIGNATURE_HEADER]: sign([body]) }),
});
