import { stripe as provider } from '../../../shared/providers/stripe.js';
import { defineHmacScheme } from './define-hmac-scheme.js';
import { stampedHeaderParts } from './stamped-header.js';
import {
  at,
  genericSummary,
  joined,
  minorUnits,
  oneLine,
  type Payload,
  text,
} from './summaries/summary-text.js';

/**
 * The payment provider's scheme (docs.stripe.com/webhooks, "Verify the signature manually"):
 * `Stripe-Signature: t=<ts>,v1=<hex>[,v1=<hex>…]`, HMAC-SHA256 of `${t}.${body}` keyed with the
 * `whsec_…` string itself (not decoded). Several `v1` appear while the provider rolls its secret;
 * other schemes (`v0`) are ignored. No delivery header: the delivery ID is the event's `id` in the
 * signed body (`evt_…`), the same on every retry and resend, where the body itself may differ
 * (its `pending_webhooks` counts down as endpoints answer).
 */

/** Stripe's libraries default to 300 s; PRODUCT.md §4 requires 5 minutes both ways. */
export const TOLERANCE_SECONDS = 5 * 60;

/** The event's top-level `id`, when the body is a Stripe event; a provider-signed body only. */
function eventId(body: Buffer): string | undefined {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { id?: unknown } | null;
    const id = parsed?.id;
    return typeof id === 'string' && /^evt_[A-Za-z0-9_]{1,200}$/.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Stripe (docs.stripe.com, "Event object"): `type`, and the object in `data.object`, whose amounts
 * are integers in the currency's smallest unit, with `currency` in lower case.
 */

/** Which amount an object's event is about: what was paid, else what is owed. */
const AMOUNT_FIELDS = ['amount', 'amount_total', 'amount_paid', 'amount_due', 'amount_received'];

function amountOf(object: Payload): string | undefined {
  const currency = text(object, 'currency');
  if (currency === undefined) return undefined;
  const amounts = AMOUNT_FIELDS.map((name) => at(object, name)).filter(
    (value): value is number => typeof value === 'number' && Number.isSafeInteger(value),
  );
  // An unpaid invoice has amount_paid 0 beside what it is for.
  const amount = amounts.find((value) => value !== 0) ?? amounts[0];
  return amount === undefined ? undefined : minorUnits(amount, currency);
}

function customerOf(object: Payload): string | undefined {
  const customer = at(object, 'customer');
  if (typeof customer === 'string' && customer !== '') return customer;
  return (
    text(object, 'customer', 'id') ??
    text(object, 'customer_email') ??
    text(object, 'receipt_email') ??
    text(object, 'customer_details', 'email')
  );
}

function stripeSummary(eventType: string | null, payload: Payload): string | null {
  const object = at(payload, 'data', 'object');
  if (typeof object !== 'object' || object === null) return genericSummary(eventType, payload);
  const amount = amountOf(object);
  const customer = customerOf(object);
  if (amount === undefined && customer === undefined) {
    return oneLine(joined(eventType, text(object, 'id')));
  }
  return oneLine(joined(eventType, amount, customer));
}

export const stripe = defineHmacScheme({
  provider,
  summarize: stripeSummary,
  encoding: 'hex',
  toleranceSeconds: TOLERANCE_SECONDS,
  ...stampedHeaderParts({
    header: 'Stripe-Signature',
    separator: ',',
    timestampKey: 't',
    signatureKey: 'v1',
    joiner: '.',
    deliveryIdOf: eventId,
  }),
});
