/**
 * Header filters (PRODUCT.md §13): the payload filter's grammar applied to request headers.
 *
 * Decisions where the spec is silent:
 * - Keys are header names (RFC 9110 token characters), matched case-insensitively; two keys
 *   that differ only in case are refused, since they would name one header.
 * - A header value is text: numbers, booleans and `null` could never equal one, and a nested
 *   object filter could never match one, so both are refused with what to write instead.
 * - A header sent once is its value; a repeated header is the array of its values, so the
 *   body's array rules apply (`in` holds if any value is listed, `not_in` if none is).
 * - Credential headers are stored as `[redacted]` and never filtered on, `exists` included.
 */
import { z } from 'zod';
import { CREDENTIAL_HEADERS } from '../credential-headers.js';
import { HEADER_NAME } from '../header-name.js';
import {
  evaluateFilter,
  explainFilter,
  type FilterFailure,
  type FilterVerdict,
} from './evaluate.js';
import { formatPath, type PathSegment } from './path.js';
import { OPERATOR_KEYS, type PayloadFilter } from './types.js';
import { findFilterProblem, type FilterProblem } from './validate.js';

/** Header values by lower-case name: a repeated header is the array of its values. */
export type HeaderValues = Readonly<Record<string, string | readonly string[] | undefined>>;

type Problem = FilterProblem;

const TEXT_ONLY = 'a header value is text: write the value in quotes (e.g. "1", "true")';

function checkText(value: unknown, path: readonly PathSegment[]): Problem | null {
  return typeof value === 'string' ? null : { path, message: TEXT_ONLY };
}

function checkList(list: readonly unknown[], path: readonly PathSegment[]): Problem | null {
  for (let i = 0; i < list.length; i++) {
    const problem = checkText(list[i], [...path, i]);
    if (problem) return problem;
  }
  return null;
}

function checkCondition(value: unknown, path: readonly PathSegment[]): Problem | null {
  if (Array.isArray(value)) return checkList(value, path);
  if (typeof value !== 'object' || value === null) return checkText(value, path);
  const entries = value as Readonly<Record<string, unknown>>;
  const keys = Object.keys(entries);
  if (!keys.every((key) => OPERATOR_KEYS.has(key))) {
    return {
      path,
      message:
        'a header value is text, so a nested filter never matches; use a value, a list, or {"in", "not_in", "exists"}',
    };
  }
  for (const op of ['in', 'not_in'] as const) {
    const list = entries[op];
    if (Array.isArray(list)) {
      const problem = checkList(list, [...path, op]);
      if (problem) return problem;
    }
  }
  return null;
}

/** What is header-specific, once the grammar itself is known to be valid. */
function findHeaderProblem(
  filter: Readonly<Record<string, unknown>>,
  redacted: ReadonlySet<string>,
): Problem | null {
  const seen = new Map<string, string>();
  for (const name of Object.keys(filter)) {
    const path = [name];
    if (!HEADER_NAME.test(name)) {
      return { path, message: 'must be an HTTP header name (letters, digits and "-")' };
    }
    const lower = name.toLowerCase();
    if (CREDENTIAL_HEADERS.has(lower) || redacted.has(lower)) {
      return {
        path,
        message: `${name} carries a credential: its value is stored as [redacted], so it cannot be filtered on`,
      };
    }
    const earlier = seen.get(lower);
    if (earlier !== undefined) {
      return {
        path,
        message: `names the same header as "${earlier}" (header names are case-insensitive)`,
      };
    }
    seen.set(lower, name);
    const problem = checkCondition(filter[name], path);
    if (problem) return problem;
  }
  return null;
}

export type HeaderFilterValidation =
  { ok: true; filter: PayloadFilter } | { ok: false; path: string; message: string };

function findProblem(input: unknown, redacted: ReadonlySet<string>): Problem | null {
  return (
    findFilterProblem(input) ??
    findHeaderProblem(input as Readonly<Record<string, unknown>>, redacted)
  );
}

/**
 * Checks a header filter before it is saved, naming the path of the bad key. `redacted`: more
 * lower-case names to refuse (a generic HMAC webhook's own signature header).
 */
export function validateHeaderFilter(
  input: unknown,
  basePath = 'headers',
  redacted: ReadonlySet<string> = new Set(),
): HeaderFilterValidation {
  const problem = findProblem(input, redacted);
  if (!problem) return { ok: true, filter: input as PayloadFilter };
  return { ok: false, path: formatPath(problem.path, basePath), message: problem.message };
}

/** The same checks for a contract schema; the issue's path points at the bad key. */
export const headerFilterSchema = z.custom<PayloadFilter>().superRefine((input, ctx) => {
  const problem = findProblem(input, new Set());
  if (problem)
    ctx.addIssue({ code: 'custom', message: problem.message, path: [...problem.path], input });
});

/** Request headers as [name, value] pairs (as stored) → values by lower-case name. */
export function headerValuesFromPairs(
  pairs: ReadonlyArray<readonly [string, string]>,
): HeaderValues {
  const values: Record<string, string | string[]> = Object.create(null) as Record<
    string,
    string | string[]
  >;
  for (const [name, value] of pairs) {
    const key = name.toLowerCase();
    const current = values[key];
    if (current === undefined) values[key] = value;
    else if (typeof current === 'string') values[key] = [current, value];
    else current.push(value);
  }
  return values;
}

function lowerCased(filter: PayloadFilter): PayloadFilter {
  // No prototype: a header named __proto__ must stay an own key.
  const lowered = Object.create(null) as Record<string, PayloadFilter[string]>;
  for (const name of Object.keys(filter)) lowered[name.toLowerCase()] = filter[name]!;
  return lowered;
}

/** Header names in the filter are matched case-insensitively: they are looked up lower-cased. */
export function evaluateHeaderFilter(
  filter: PayloadFilter | null | undefined,
  headers: HeaderValues,
): FilterVerdict {
  if (!filter) return { matched: true };
  return evaluateFilter(lowerCased(filter), headers);
}

/** Every failing header of the filter, for Test filter (names as lower-case paths). */
export function explainHeaderFilter(
  filter: PayloadFilter | null | undefined,
  headers: HeaderValues,
): FilterFailure[] {
  return filter ? explainFilter(lowerCased(filter), headers) : [];
}
