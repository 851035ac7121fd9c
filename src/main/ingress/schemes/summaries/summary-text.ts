/**
 * The pieces every provider's summary is made of (PRODUCT.md §22): reading a field of the parsed
 * payload without trusting its shape, and making one bounded line of what was found.
 */

export const MAX_SUMMARY_LENGTH = 140;
/** A string field longer than this is prose, not a name: the generic rule passes over it. */
const SHORT_STRING = 60;
const GENERIC_FIELDS = 3;
/** Fields the generic rule looks at, at most: its cost stays flat however large the payload. */
const GENERIC_VISITS = 200;
// Line breaks, tabs and other control characters (C0, DEL, C1) become one space.
// eslint-disable-next-line no-control-regex
const CONTROL_OR_SPACE = /[\s\u0000-\u001f\u007f-\u009f]+/g;
// Anything but single inner spaces: a line break, a tab, a control character, or a space at an
// end or next to another.
const NEEDS_FLATTENING =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f\s]{2}|[^\S ]|[\u0000-\u001f\u007f-\u009f]|^\s|\s$/;

export type Payload = unknown;

/** `payload.a.b.c`, or undefined where any step is missing or not an object. */
export function at(payload: Payload, ...keys: string[]): unknown {
  let value = payload;
  for (const key of keys) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    if (!Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** A string or finite number at the path, as text; undefined otherwise (or when empty). */
export function text(payload: Payload, ...keys: string[]): string | undefined {
  const value = at(payload, ...keys);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** One line, at most 140 characters (an ellipsis marks a cut), or null when nothing is left. */
export function oneLine(line: string | undefined | null): string | null {
  if (line === undefined || line === null) return null;
  // Cheap checks first: most lines need neither the rewrite nor the cut.
  const flat = NEEDS_FLATTENING.test(line) ? line.replace(CONTROL_OR_SPACE, ' ').trim() : line;
  if (flat === '') return null;
  // UTF-16 length bounds the count of characters: only a long line is counted by code point.
  if (flat.length <= MAX_SUMMARY_LENGTH) return flat;
  const chars = [...flat];
  return chars.length <= MAX_SUMMARY_LENGTH
    ? flat
    : `${chars
        .slice(0, MAX_SUMMARY_LENGTH - 1)
        .join('')
        .trimEnd()}…`;
}

/** Parts joined by ` · `, leaving out the missing ones. */
export const joined = (...parts: Array<string | undefined | null>): string =>
  parts.filter((part): part is string => typeof part === 'string' && part !== '').join(' · ');

/** `1 commit`, `3 commits`. */
export const counted = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The generic rule: the event type, then the first short string fields (`key: value`), read
 * breadth first through objects (arrays are passed over: their first item is rarely the point).
 */
export function genericSummary(eventType: string | null, payload: Payload): string | null {
  const found: string[] = [];
  let visits = 0;
  let level: Array<[string, unknown]> = [['', payload]];
  for (let depth = 0; depth < 3 && found.length < GENERIC_FIELDS && level.length > 0; depth++) {
    const next: Array<[string, unknown]> = [];
    for (const [, value] of level) {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
      for (const [key, field] of Object.entries(value)) {
        if (found.length >= GENERIC_FIELDS || ++visits > GENERIC_VISITS) break;
        if (typeof field === 'string') {
          const short = field.trim();
          if (short !== '' && short.length <= SHORT_STRING && short !== eventType) {
            found.push(`${key}: ${short}`);
          }
        } else if (typeof field === 'object' && field !== null) {
          next.push([key, field]);
        }
      }
    }
    level = next;
  }
  return oneLine(joined(eventType, ...found));
}

/** Currencies without a minor unit (Stripe's list, which Paddle's lowest units follow) (docs.stripe.com/currencies#zero-decimal). */
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

/** `4200` and `eur` → `42.00 EUR` (minor units to major, as Stripe's dashboard shows them). */
export function minorUnits(amount: number, currency: string): string {
  const code = currency.toUpperCase();
  if (ZERO_DECIMAL.has(currency.toLowerCase())) return `${amount} ${code}`;
  const sign = amount < 0 ? '-' : '';
  const cents = Math.abs(amount);
  return `${sign}${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')} ${code}`;
}
