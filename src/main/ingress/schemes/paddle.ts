import { paddle as provider } from '../../../shared/providers/paddle.js';
import { defineHmacScheme } from './define-hmac-scheme.js';
import { stampedHeaderParts } from './stamped-header.js';
import {
  genericSummary,
  joined,
  minorUnits,
  oneLine,
  type Payload,
  text,
} from './summaries/summary-text.js';

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

/**
 * Paddle Billing (developer.paddle.com, "Webhooks"): `event_type` and `data`; a transaction's
 * totals are strings in the currency's lowest unit (`details.totals.grand_total`).
 */
function paddleSummary(eventType: string | null, payload: Payload): string | null {
  const currency = text(payload, 'data', 'currency_code');
  const total = text(payload, 'data', 'details', 'totals', 'grand_total');
  const customer = text(payload, 'data', 'customer_id');
  const cents = total === undefined ? Number.NaN : Number(total);
  const amount =
    currency !== undefined && Number.isSafeInteger(cents) ? minorUnits(cents, currency) : undefined;
  if (amount === undefined && customer === undefined) return genericSummary(eventType, payload);
  return oneLine(joined(eventType, amount, customer));
}

export const paddle = defineHmacScheme({
  provider,
  summarize: paddleSummary,
  encoding: 'hex',
  toleranceSeconds: TOLERANCE_SECONDS,
  ...stampedHeaderParts({
    header: 'Paddle-Signature',
    separator: ';',
    timestampKey: 'ts',
    signatureKey: 'h1',
    joiner: ':',
  }),
});
