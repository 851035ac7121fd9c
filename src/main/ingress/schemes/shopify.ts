import { defineHmacScheme } from './define-hmac-scheme.js';
import { hasHeader, optionalHeader, requireHeader } from './headers.js';
import type { DistinctHeaders } from './scheme.js';
import { fail } from './verification.js';

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

function signatureHeader(headers: DistinctHeaders): string {
  const classic = hasHeader(headers, SIGNATURE_HEADER);
  const events = hasHeader(headers, EVENTS_SIGNATURE_HEADER);
  if (classic && events) fail(`both ${SIGNATURE_HEADER} and ${EVENTS_SIGNATURE_HEADER} headers`);
  return events ? EVENTS_SIGNATURE_HEADER : SIGNATURE_HEADER;
}

export const shopify = defineHmacScheme({
  name: 'shopify',
  deliveryIdHeader: DELIVERY_HEADER,
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
