import type { HeaderValues } from '../../shared/filter/index.js';
import { HEADER_NAME } from '../../shared/header-name.js';
import { parseJsonBody } from '../ingress/steps/parse-json.js';

export type HeadersFile = { ok: true; headers: HeaderValues } | { ok: false; message: string };

/**
 * `hookport test-filter --headers FILE`: a JSON object name → value, or name → list of values
 * for a header sent more than once. Names are case-insensitive, as the relay matches them.
 */
export function readHeadersFile(bytes: Buffer): HeadersFile {
  const json = parseJsonBody(bytes);
  if (!json.ok) return { ok: false, message: json.reason.replace(/^body/, 'the headers') };
  const value = json.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, message: 'expected a JSON object of header name → value' };
  }
  const headers = Object.create(null) as Record<string, string | string[]>;
  const spelled = new Map<string, string>();
  for (const [name, given] of Object.entries(value as Record<string, unknown>)) {
    if (!HEADER_NAME.test(name)) {
      return { ok: false, message: `${name}: not an HTTP header name` };
    }
    const lower = name.toLowerCase();
    const earlier = spelled.get(lower);
    if (earlier !== undefined) {
      return {
        ok: false,
        message: `${name}: the same header as "${earlier}" (names are case-insensitive); list repeated values in one array`,
      };
    }
    spelled.set(lower, name);
    if (typeof given === 'string') headers[lower] = given;
    else if (
      Array.isArray(given) &&
      given.length > 0 &&
      given.every((item) => typeof item === 'string')
    ) {
      headers[lower] = given;
    } else {
      return {
        ok: false,
        message: `${name}: expected a string, or a non-empty list of strings for a repeated header`,
      };
    }
  }
  return { ok: true, headers };
}
