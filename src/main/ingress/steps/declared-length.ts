import type { IncomingMessage } from 'node:http';
import { headerLines } from './header-lines.js';

/** What a request's Content-Length says, read strictly; a length past the limit is kept as text. */
export type DeclaredLength =
  { kind: 'none' } | { kind: 'within'; bytes: number } | { kind: 'over'; declared: string };

const DIGITS = /^[0-9]+$/;
/** Past this many digits a declared length is shown cut short: leading zeros are unbounded. */
const SHOWN_DIGITS = 24;
const digitsOf = (n: number): number => (n < 1 ? 1 : Math.floor(Math.log10(n)) + 1);

/**
 * The Content-Length as bytes when it is within `limit`. Node's parser already refuses framing
 * it cannot trust (signs, two lengths, past 2^64), but its value is never read through `Number`
 * here: 1e19 or 2^53 + 1 would come back as a number no column or contract takes. Anything but
 * one run of digits counts as none (the parser decided how the body is read).
 */
export function declaredLength(req: IncomingMessage, limit: number): DeclaredLength {
  const lines = headerLines(req, 'content-length');
  if (lines?.length !== 1) return { kind: 'none' };
  const text = lines[0]!.trim();
  if (!DIGITS.test(text)) return { kind: 'none' };
  // Leading zeros are rare: no second string for the common length.
  const digits = text.charCodeAt(0) === 48 ? text.replace(/^0+(?=.)/, '') : text;
  // Within `limit` a length has at most as many digits as the limit, so Number is exact there.
  if (digits.length <= digitsOf(limit) && Number(digits) <= limit) {
    return { kind: 'within', bytes: Number(digits) };
  }
  const shown = digits.length > SHOWN_DIGITS ? `${digits.slice(0, SHOWN_DIGITS)}…` : digits;
  return { kind: 'over', declared: shown };
}
