import { defineHmacScheme } from './define-hmac-scheme.js';
import { parseParameters, requireHeader, requireSignatures, singleParameter } from './headers.js';
import type { SignedContent } from './hmac.js';
import { parseUnixSeconds } from './timestamps.js';

/**
 * Paddle Billing (developer.paddle.com/webhooks/about/signature-verification):
 * `Paddle-Signature: ts=<ts>;h1=<hex>[;h1=<hex>…]` (several `h1` while a secret rotates),
 * HMAC-SHA256 of `${ts}:${body}` keyed with the endpoint secret key. No delivery header.
 */

/**
 * Paddle's SDK helpers enforce a five-second tolerance and its docs ask manual implementations
 * to apply the same check. Tight: the relay host's clock must be in sync (NTP).
 */
export const TOLERANCE_SECONDS = 5;

const SIGNATURE_HEADER = 'Paddle-Signature';

const signedContent = (timestamp: string, body: Buffer): SignedContent => [`${timestamp}:`, body];

export const paddle = defineHmacScheme({
  name: 'paddle',
  deliveryIdHeader: null,
  encoding: 'hex',
  toleranceSeconds: TOLERANCE_SECONDS,
  read({ headers, body }) {
    const parameters = parseParameters(
      requireHeader(headers, SIGNATURE_HEADER),
      ';',
      SIGNATURE_HEADER,
    );
    const timestamp = parseUnixSeconds(
      singleParameter(parameters, 'ts', SIGNATURE_HEADER),
      `ts= in ${SIGNATURE_HEADER} header`,
    );
    return {
      candidates: requireSignatures(parameters.get('h1') ?? [], 'h1', SIGNATURE_HEADER),
      content: signedContent(timestamp, body),
      timestamp,
    };
  },
  write: ({ timestamp, body, sign }) => ({
    [SIGNATURE_HEADER]: `ts=${timestamp};h1=${sign(signedContent(timestamp, body))}`,
  }),
});
