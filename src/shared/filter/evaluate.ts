/**
 * Decides whether a delivery body matches a payload filter (PRODUCT.md §6) and, when it does
 * not, explains the first failing key. Only the paths the filter names are read.
 */
import { formatPath } from './path.js';
import { renderValue } from './render.js';
import {
  isArray,
  isFilterList,
  isFilterScalar,
  isJsonObject,
  isOperatorObject,
  type FilterCondition,
  type FilterList,
  type FilterOperators,
  type PayloadFilter,
} from './types.js';

export interface FilterFailure {
  /** Dotted path of the failing field; `''` when the body itself is not an object. */
  path: string;
  expected: string;
  actual: string;
}

export type FilterVerdict = { matched: true } | { matched: false; failure: FilterFailure };

/** A field as read from the body: `present` tells a missing key from one holding undefined. */
interface Field {
  readonly present: boolean;
  readonly value: unknown;
}

const MISSING: Field = { present: false, value: undefined };

// Kept unrendered until the very end: a nested filter over an array of objects tries every
// element, and only the overall failure is ever shown.
type Expectation =
  | { readonly kind: 'equal' | 'one_of' | 'not_one_of'; readonly values: FilterList }
  | { readonly kind: 'present' | 'absent' | 'object' }
  | { readonly kind: 'element'; readonly filter: PayloadFilter };

interface Miss {
  readonly path: readonly string[];
  readonly expected: Expectation;
  readonly field: Field;
}

function readField(body: Readonly<Record<string, unknown>>, key: string): Field {
  // Own keys only: a filter on `constructor` must not find Object.prototype.constructor.
  return Object.hasOwn(body, key) ? { present: true, value: body[key] } : MISSING;
}

/** The value test behind `=`, bare lists and `in`: on an array field, any element will do. */
function holdsAny(field: Field, values: FilterList): boolean {
  if (!field.present) return false;
  const { value } = field;
  if (!isArray(value)) return values.some((allowed) => allowed === value);
  const allowed = new Set<unknown>(values);
  return value.some((item) => allowed.has(item));
}

function matchOperators(ops: FilterOperators, field: Field, path: readonly string[]): Miss | null {
  if (ops.exists === true && !field.present) return { path, expected: { kind: 'present' }, field };
  if (ops.exists === false && field.present) return { path, expected: { kind: 'absent' }, field };
  if (ops.in && !holdsAny(field, ops.in)) {
    return { path, expected: { kind: 'one_of', values: ops.in }, field };
  }
  if (ops.not_in && holdsAny(field, ops.not_in)) {
    return { path, expected: { kind: 'not_one_of', values: ops.not_in }, field };
  }
  return null;
}

function matchNested(filter: PayloadFilter, field: Field, path: readonly string[]): Miss | null {
  const { value } = field;
  if (isJsonObject(value)) return matchFields(filter, value, path);
  if (!isArray(value)) return { path, expected: { kind: 'object' }, field };
  for (const item of value) {
    if (isJsonObject(item) && !matchFields(filter, item, path)) return null;
  }
  return { path, expected: { kind: 'element', filter }, field };
}

function matchCondition(cond: FilterCondition, field: Field, path: readonly string[]): Miss | null {
  if (isFilterScalar(cond)) {
    return holdsAny(field, [cond])
      ? null
      : { path, expected: { kind: 'equal', values: [cond] }, field };
  }
  if (isFilterList(cond)) {
    return holdsAny(field, cond)
      ? null
      : { path, expected: { kind: 'one_of', values: cond }, field };
  }
  if (isOperatorObject(cond)) return matchOperators(cond, field, path);
  return matchNested(cond, field, path);
}

function matchFields(
  filter: PayloadFilter,
  body: Readonly<Record<string, unknown>>,
  path: readonly string[],
): Miss | null {
  for (const key of Object.keys(filter)) {
    const cond = filter[key];
    if (cond === undefined) continue;
    const miss = matchCondition(cond, readField(body, key), [...path, key]);
    if (miss) return miss;
  }
  return null;
}

function describeExpectation(expected: Expectation): string {
  switch (expected.kind) {
    case 'equal':
      return renderValue(expected.values[0]);
    case 'one_of':
      return `one of ${renderValue(expected.values)}`;
    case 'not_one_of':
      return `not one of ${renderValue(expected.values)}`;
    case 'present':
      return 'present';
    case 'absent':
      return 'absent';
    case 'object':
      return 'an object';
    case 'element':
      return `an element matching ${renderValue(expected.filter)}`;
  }
}

function explain(miss: Miss): FilterFailure {
  return {
    path: formatPath(miss.path),
    expected: describeExpectation(miss.expected),
    actual: miss.field.present ? renderValue(miss.field.value) : 'missing',
  };
}

function isEmpty(filter: PayloadFilter): boolean {
  for (const key in filter) if (Object.hasOwn(filter, key)) return false;
  return true;
}

/** No filter, or `{}`, matches every delivery; otherwise every key must match (AND). */
export function evaluateFilter(
  filter: PayloadFilter | null | undefined,
  payload: unknown,
): FilterVerdict {
  if (!filter || isEmpty(filter)) return { matched: true };
  const miss = isJsonObject(payload)
    ? matchFields(filter, payload, [])
    : { path: [], expected: { kind: 'object' } as const, field: { present: true, value: payload } };
  return miss ? { matched: false, failure: explain(miss) } : { matched: true };
}

/**
 * Every failing key, in the filter's order, for Test filter: a nested filter over an object
 * field is searched for all its failing keys, not only the first. Empty when the filter matches.
 */
export function explainFilter(
  filter: PayloadFilter | null | undefined,
  payload: unknown,
): FilterFailure[] {
  if (!filter || isEmpty(filter)) return [];
  if (!isJsonObject(payload)) {
    return [
      explain({ path: [], expected: { kind: 'object' }, field: { present: true, value: payload } }),
    ];
  }
  const misses: Miss[] = [];
  collectMisses(filter, payload, [], misses);
  return misses.map(explain);
}

function collectMisses(
  filter: PayloadFilter,
  body: Readonly<Record<string, unknown>>,
  path: readonly string[],
  out: Miss[],
): void {
  for (const key of Object.keys(filter)) {
    const cond = filter[key];
    if (cond === undefined) continue;
    const field = readField(body, key);
    const here = [...path, key];
    const nested =
      !isFilterScalar(cond) && !isFilterList(cond) && !isOperatorObject(cond) ? cond : null;
    // Into an object field every failing key counts; an array of objects is one verdict.
    if (nested && isJsonObject(field.value)) collectMisses(nested, field.value, here, out);
    else {
      const miss = matchCondition(cond, field, here);
      if (miss) out.push(miss);
    }
  }
}

/** `pull_request.state: expected one of ["open"], got "closed"`; no path for the body itself. */
export function describeFailure(failure: FilterFailure): string {
  const text = `expected ${failure.expected}, got ${failure.actual}`;
  return failure.path === '' ? text : `${failure.path}: ${text}`;
}
