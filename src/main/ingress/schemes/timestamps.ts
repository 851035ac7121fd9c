import { fail, SigningError } from './verification.js';

/** PRODUCT.md §3: a signed timestamp is 1 to 10 decimal digits, nothing else (no sign, space or fraction). */
const UNIX_SECONDS = /^\d{1,10}$/;

/** Checks a signed timestamp's format and returns it unchanged (it is signed as sent). */
export function parseUnixSeconds(value: string, where: string): string {
  if (!UNIX_SECONDS.test(value)) fail(`${where} is not a Unix timestamp in seconds`);
  return value;
}

/** Fails when `timestampSeconds` is more than the tolerance before or after `nowMs`. */
export function assertWithinTolerance(
  timestampSeconds: number,
  nowMs: number,
  toleranceSeconds: number,
): void {
  const nowSeconds = Math.floor(nowMs / 1000);
  // Written as "not within" so that a NaN clock fails too.
  if (!(Math.abs(nowSeconds - timestampSeconds) <= toleranceSeconds)) {
    fail(`timestamp outside the ${toleranceSeconds} s tolerance`);
  }
}

/** A timestamp for `sign()`, as providers send it: whole seconds, decimal. */
export function formatUnixSeconds(timestamp: number): string {
  const formatted = String(timestamp);
  if (!Number.isSafeInteger(timestamp) || !UNIX_SECONDS.test(formatted)) {
    throw new SigningError('timestamp must be whole seconds since the epoch (at most 10 digits)');
  }
  return formatted;
}
