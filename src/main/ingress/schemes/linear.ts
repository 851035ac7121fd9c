import type { VerifyInput } from './scheme.js';
import { defineHmacScheme } from './define-hmac-scheme.js';
import { requireHeader } from './headers.js';
import { fail } from './verification.js';

/**
 * Linear (linear.app/developers/webhooks, "Securing webhooks"): `Linear-Signature` holds the hex
 * HMAC-SHA256 of the body keyed with the webhook's signing secret. The timestamp is not a header
 * but the body's `webhookTimestamp` (milliseconds), read only after the signature matched, so an
 * unauthenticated body is never parsed. Delivery: `Linear-Delivery`.
 */

/** Linear asks for `webhookTimestamp` within a minute of now; its SDK rejects a delta over 60 s. */
export const TOLERANCE_MS = 60 * 1000;

const SIGNATURE_HEADER = 'Linear-Signature';
const TIMESTAMP_FIELD = 'webhookTimestamp';

/** Fatal UTF-8; one leading BOM is skipped (PRODUCT.md §3). */
const utf8 = new TextDecoder('utf-8', { fatal: true });

function readPayload(body: Buffer): unknown {
  try {
    return JSON.parse(utf8.decode(body));
  } catch {
    return fail(`body is not JSON, so ${TIMESTAMP_FIELD} cannot be checked`);
  }
}

function checkWebhookTimestamp({ body, now }: VerifyInput): void {
  const payload = readPayload(body);
  const timestamp =
    typeof payload === 'object' && payload !== null && Object.hasOwn(payload, TIMESTAMP_FIELD)
      ? (payload as Record<string, unknown>)[TIMESTAMP_FIELD]
      : undefined;
  if (typeof timestamp !== 'number' || !Number.isSafeInteger(timestamp) || timestamp < 0) {
    fail(`body has no ${TIMESTAMP_FIELD} in milliseconds`);
  }
  if (!(Math.abs(now - timestamp) <= TOLERANCE_MS)) {
    fail(`${TIMESTAMP_FIELD} outside the ${TOLERANCE_MS / 1000} s tolerance`);
  }
}

export const linear = defineHmacScheme({
  name: 'linear',
  deliveryIdHeader: 'Linear-Delivery',
  encoding: 'hex',
  toleranceSeconds: null,
  read: ({ headers, body }) => ({
    candidates: [requireHeader(headers, SIGNATURE_HEADER)],
    content: [body],
    timestamp: null,
  }),
  // The body must already carry webhookTimestamp: sign() returns headers only.
  write: ({ body, sign }) => ({ [SIGNATURE_HEADER]: sign([body]) }),
  checkAuthenticatedBody: checkWebhookTimestamp,
  timestampInBody: true,
});
