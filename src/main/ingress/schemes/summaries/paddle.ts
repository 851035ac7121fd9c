import { genericSummary, joined, oneLine, text, type Payload } from './summary-text.js';
import { minorUnits } from './stripe.js';

/**
 * Paddle Billing (developer.paddle.com, "Webhooks"): `event_type` and `data`; a transaction's
 * totals are strings in the currency's lowest unit (`details.totals.grand_total`).
 */
export function paddleSummary(eventType: string | null, payload: Payload): string | null {
  const currency = text(payload, 'data', 'currency_code');
  const total = text(payload, 'data', 'details', 'totals', 'grand_total');
  const customer = text(payload, 'data', 'customer_id');
  const cents = total === undefined ? Number.NaN : Number(total);
  const amount =
    currency !== undefined && Number.isSafeInteger(cents) ? minorUnits(cents, currency) : undefined;
  if (amount === undefined && customer === undefined) return genericSummary(eventType, payload);
  return oneLine(joined(eventType, amount, customer));
}
