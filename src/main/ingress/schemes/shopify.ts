import { defineHmacScheme } from './define-hmac-scheme.js';
import { requireHeader } from './headers.js';

/**
 * Shopify (shopify.dev, "Verify webhooks"): `X-Shopify-Hmac-Sha256` holds the base64 HMAC-SHA256
 * of the body keyed with the app's client secret. No signed timestamp.
 * Delivery: `X-Shopify-Webhook-Id`.
 */

const SIGNATURE_HEADER = 'X-Shopify-Hmac-Sha256';

export const shopify = defineHmacScheme({
  name: 'shopify',
  deliveryIdHeader: 'X-Shopify-Webhook-Id',
  encoding: 'base64',
  toleranceSeconds: null,
  read: ({ headers, body }) => ({
    candidates: [requireHeader(headers, SIGNATURE_HEADER)],
    content: [body],
    timestamp: null,
  }),
  write: ({ body, sign }) => ({ [SIGNATURE_HEADER]: sign([body]) }),
});
