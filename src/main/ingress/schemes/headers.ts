import type { DistinctHeaders } from './scheme.js';
import { fail } from './verification.js';
import { parseUnixSeconds } from './timestamps.js';

/**
 * Header helpers. `name` is spelled as the provider documents it (reasons quote it); lookups use
 * the lower-case form that `req.headersDistinct` gives.
 */

export function hasHeader(headers: DistinctHeaders, name: string): boolean {
  return Object.hasOwn(headers, name.toLowerCase());
}

/** The header's single value, or null when absent or empty. A repeated header is a failure. */
export function optionalHeader(headers: DistinctHeaders, name: string): string | null {
  const key = name.toLowerCase();
  if (!Object.hasOwn(headers, key)) return null;
  const values = headers[key];
  if (values === undefined || values.length === 0) return null;
  if (values.length > 1) fail(`repeated ${name} header`);
  const [value] = values;
  return value === undefined || value === '' ? null : value;
}

/** The header's single value; missing, empty or repeated is a failure. */
export function requireHeader(headers: DistinctHeaders, name: string): string {
  const value = optionalHeader(headers, name);
  if (value === null)
    fail(hasHeader(headers, name) ? `empty ${name} header` : `missing ${name} header`);
  return value;
}

/** `value` without its fixed prefix (GitHub's `sha256=`, Slack's `v0=`). */
export function withoutPrefix(value: string, prefix: string, name: string): string {
  if (!value.startsWith(prefix)) fail(`malformed ${name} header (expected ${prefix}<signature>)`);
  return value.slice(prefix.length);
}

/**
 * Splits a `key=value` list such as Stripe's `t=…,v1=…,v1=…` or Paddle's `ts=…;h1=…` into the
 * values of each key, in order. An element without a key and `=` is a failure.
 */
export function parseParameters(
  value: string,
  separator: string,
  name: string,
): ReadonlyMap<string, readonly string[]> {
  const parameters = new Map<string, string[]>();
  for (const element of value.split(separator)) {
    const equals = element.indexOf('=');
    if (equals <= 0) fail(`malformed ${name} header`);
    const key = element.slice(0, equals);
    const values = parameters.get(key) ?? [];
    values.push(element.slice(equals + 1));
    parameters.set(key, values);
  }
  return parameters;
}

/** The one value of `key` in a parsed parameter list; none or several is a failure. */
export function singleParameter(
  parameters: ReadonlyMap<string, readonly string[]>,
  key: string,
  name: string,
): string {
  const values = parameters.get(key) ?? [];
  const [value] = values;
  if (value === undefined) fail(`${name} header has no ${key}=`);
  if (values.length > 1) fail(`${name} header has more than one ${key}=`);
  return value;
}

/** The signatures a header carries; none (e.g. only `v0=` or `v1a,` entries) is a failure. */
export function requireSignatures(
  candidates: readonly string[],
  label: string,
  name: string,
): readonly string[] {
  if (candidates.length === 0) fail(`no ${label} signature in ${name} header`);
  return candidates;
}

/** How a timestamped signature header is laid out: Stripe's `t=…,v1=…`, Paddle's `ts=…;h1=…`. */
export interface StampedHeaderLayout {
  header: string;
  separator: string;
  timestampKey: string;
  signatureKey: string;
}

/** The timestamp (unix seconds, as sent) and the signatures of a timestamped signature header. */
export function readStampedHeader(
  headers: DistinctHeaders,
  { header, separator, timestampKey, signatureKey }: StampedHeaderLayout,
): { timestamp: string; candidates: readonly string[] } {
  const parameters = parseParameters(requireHeader(headers, header), separator, header);
  const timestamp = parseUnixSeconds(
    singleParameter(parameters, timestampKey, header),
    `${timestampKey}= in ${header} header`,
  );
  const candidates = requireSignatures(parameters.get(signatureKey) ?? [], signatureKey, header);
  return { timestamp, candidates };
}
