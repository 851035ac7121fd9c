import { defineHmacScheme } from './define-hmac-scheme.js';
import { requireHeader, withoutPrefix } from './headers.js';

/**
 * GitHub (docs.github.com, "Validating webhook deliveries"): `X-Hub-Signature-256: sha256=<hex>`,
 * HMAC-SHA256 of the body keyed with the secret. No signed timestamp. Delivery: `X-GitHub-Delivery`.
 */

const SIGNATURE_HEADER = 'X-Hub-Signature-256';
const PREFIX = 'sha256=';

export const github = defineHmacScheme({
  name: 'github',
  deliveryIdHeader: 'X-GitHub-Delivery',
  encoding: 'hex',
  toleranceSeconds: null,
  read: ({ headers, body }) => ({
    candidates: [withoutPrefix(requireHeader(headers, SIGNATURE_HEADER), PREFIX, SIGNATURE_HEADER)],
    content: [body],
    timestamp: null,
  }),
  write: ({ body, sign }) => ({ [SIGNATURE_HEADER]: PREFIX + sign([body]) }),
});
