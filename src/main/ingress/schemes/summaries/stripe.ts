import { at, genericSummary, joined, oneLine, text, type Payload } from './summary-text.js';

/**
 * Stripe (docs.stripe.com, "Event object"): `type`, and the object in `data.object`, whose amounts
 * are integers in the currency's smallest unit, with `currency` in lower case.
 */

/** Currencies without a minor unit (docs.stripe.com/currencies#zero-decimal). */
const ZERO_DECIMAL = new Set([
  'bif',
  'clp',
  'djf',
  'gnf',
  'jpy',
  'kmf',
  'krw',
  'mga',
  'pyg',
  'rwf',
  'ugx',
  'vnd',
  'vuv',
  'xaf',
  'xof',
  'xpf',
]);

/** Which amount an object's event is about: what was paid, else what is owed. */
const AMOUNT_FIELDS = ['amount', 'amount_total', 'amount_paid', 'amount_due', 'amount_received'];

/** `4200` and `eur` → `42.00 EUR` (minor units to major, as Stripe's dashboard shows them). */
export function minorUnits(amount: number, currency: string): string {
  const code = currency.toUpperCase();
  if (ZERO_DECIMAL.has(currency.toLowerCase())) return `${amount} ${code}`;
  const sign = amount < 0 ? '-' : '';
  const cents = Math.abs(amount);
  return `${sign}${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')} ${code}`;
}

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

export function stripeSummary(eventType: string | null, payload: Payload): string | null {
  const object = at(payload, 'data', 'object');
  if (typeof object !== 'object' || object === null) return genericSummary(eventType, payload);
  const amount = amountOf(object);
  const customer = customerOf(object);
  if (amount === undefined && customer === undefined) {
    return oneLine(joined(eventType, text(object, 'id')));
  }
  return oneLine(joined(eventType, amount, customer));
}
