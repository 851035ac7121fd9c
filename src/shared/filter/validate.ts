/**
 * Refuses payload filters that are malformed, oversized or can never mean what was meant,
 * naming the path of the bad key (PRODUCT.md §6).
 *
 * Decisions where the spec is silent:
 * - The top level is always an object of field filters, never an operator object: a top-level
 *   `{"exists": true}` tests a payload field named `exists`.
 * - An object mixing operator keys with other keys is a nested filter, as §6 says; so payload
 *   fields named `in`, `not_in` or `exists` can still be reached beside other keys.
 * - A nested `{}` is refused: it tests nothing (and whether it should require the field is
 *   unclear); `{"exists": true}` says it plainly. The top-level `{}` matches everything.
 * - `"exists": false` together with `in` is refused: it could never match. `in` and `not_in`
 *   may be combined.
 * - `not_in: []` is refused too: it excludes nothing, which is as surely a mistake.
 * - Depth counts field keys: `{"a": {"b": 1}}` is 2 levels; operator keys add none.
 * - The key limit counts every key written, operator keys included.
 * - Keys, like string values, are at most MAX_FILTER_STRING_LENGTH characters.
 * - Numbers must be finite (JSON has no NaN or Infinity). Duplicate list values are allowed.
 * - Keys are literal: `"a.b"` names a field called `a.b`, not `b` inside `a`; paths render it
 *   as `payload["a.b"]`.
 * - Values that JSON cannot hold (undefined, functions, Dates, class instances) are refused.
 * - A valid filter is returned as given, not copied, so a `__proto__` key stays an own key.
 */
import { z } from 'zod';
import { formatPath, type PathSegment } from './path.js';
import { OPERATOR_KEYS, isFilterScalar, type PayloadFilter } from './types.js';

export const MAX_FILTER_DEPTH = 16;
export const MAX_FILTER_KEYS = 200;
export const MAX_FILTER_LIST_VALUES = 100;
export const MAX_FILTER_STRING_LENGTH = 1000;

export type FilterValidation =
  { ok: true; filter: PayloadFilter } | { ok: false; path: string; message: string };

export interface FilterProblem {
  readonly path: readonly PathSegment[];
  readonly message: string;
}

type Problem = FilterProblem;

interface State {
  keys: number;
}

type Entries = Readonly<Record<string, unknown>>;

const ANY_VALUE = 'expected a string, number, boolean, null, list or object';
const LIST_ITEM = 'a list may hold only strings, numbers, booleans and null';

// Only plain objects: a Date or a Map would otherwise pass as an empty nested filter.
function isPlainObject(value: unknown): value is Entries {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function describeKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value === undefined) return 'nothing';
  return `a ${typeof value}`;
}

function checkScalar(value: unknown, path: readonly PathSegment[]): Problem | null {
  if (typeof value === 'number' && !Number.isFinite(value)) {
    return { path, message: 'expected a finite number' };
  }
  if (typeof value === 'string' && value.length > MAX_FILTER_STRING_LENGTH) {
    return { path, message: `a string may be at most ${MAX_FILTER_STRING_LENGTH} characters` };
  }
  return null;
}

function checkList(
  list: readonly unknown[],
  path: readonly PathSegment[],
  excludes: boolean,
): Problem | null {
  if (list.length === 0) {
    const message = excludes
      ? 'an empty list excludes nothing; list at least one value or remove "not_in"'
      : 'an empty list can never match; list at least one value';
    return { path, message };
  }
  if (list.length > MAX_FILTER_LIST_VALUES) {
    return { path, message: `a list may hold at most ${MAX_FILTER_LIST_VALUES} values` };
  }
  for (let i = 0; i < list.length; i++) {
    const item: unknown = list[i];
    if (!isFilterScalar(item)) return { path: [...path, i], message: LIST_ITEM };
    const problem = checkScalar(item, [...path, i]);
    if (problem) return problem;
  }
  return null;
}

function countKey(key: string, path: readonly PathSegment[], state: State): Problem | null {
  if (key === '') return { path, message: 'a key must not be empty' };
  if (key.length > MAX_FILTER_STRING_LENGTH) {
    return { path, message: `a key may be at most ${MAX_FILTER_STRING_LENGTH} characters` };
  }
  state.keys += 1;
  if (state.keys > MAX_FILTER_KEYS) {
    return { path, message: `a filter may have at most ${MAX_FILTER_KEYS} keys` };
  }
  return null;
}

function checkOperators(ops: Entries, path: readonly PathSegment[], state: State): Problem | null {
  for (const key of Object.keys(ops)) {
    const opPath = [...path, key];
    const problem = countKey(key, opPath, state) ?? checkOperator(key, ops[key], opPath);
    if (problem) return problem;
  }
  if (ops.exists === false && Object.hasOwn(ops, 'in')) {
    return {
      path: [...path, 'in'],
      message: 'cannot be combined with "exists": false; it could never match',
    };
  }
  return null;
}

function checkOperator(key: string, value: unknown, path: readonly PathSegment[]): Problem | null {
  if (key === 'exists') {
    return typeof value === 'boolean' ? null : { path, message: 'expected true or false' };
  }
  if (!Array.isArray(value)) return { path, message: 'expected an array of values' };
  return checkList(value, path, key === 'not_in');
}

function checkCondition(
  value: unknown,
  path: readonly PathSegment[],
  level: number,
  state: State,
): Problem | null {
  if (isFilterScalar(value)) return checkScalar(value, path);
  if (Array.isArray(value)) return checkList(value, path, false);
  if (!isPlainObject(value)) return { path, message: ANY_VALUE };
  const keys = Object.keys(value);
  if (keys.length === 0) {
    return {
      path,
      message: 'an empty object tests nothing; use {"exists": true} to require the field',
    };
  }
  if (keys.every((key) => OPERATOR_KEYS.has(key))) return checkOperators(value, path, state);
  if (level >= MAX_FILTER_DEPTH) {
    return { path, message: `a filter may nest at most ${MAX_FILTER_DEPTH} levels` };
  }
  return checkFields(value, path, level + 1, state);
}

// `level` is the depth of the keys of `fields`: 1 for the top level.
function checkFields(
  fields: Entries,
  path: readonly PathSegment[],
  level: number,
  state: State,
): Problem | null {
  for (const key of Object.keys(fields)) {
    const keyPath = [...path, key];
    const problem =
      countKey(key, keyPath, state) ?? checkCondition(fields[key], keyPath, level, state);
    if (problem) return problem;
  }
  return null;
}

/** The first problem of a filter, in key order, with its path as segments. */
export function findFilterProblem(input: unknown): Problem | null {
  if (!isPlainObject(input))
    return { path: [], message: `expected an object, got ${describeKind(input)}` };
  return checkFields(input, [], 1, { keys: 0 });
}

/** Checks a filter before it is saved; the first problem found, in key order, is reported. */
export function validateFilter(input: unknown, basePath = 'payload'): FilterValidation {
  const problem = findFilterProblem(input);
  if (!problem) return { ok: true, filter: input as PayloadFilter };
  return { ok: false, path: formatPath(problem.path, basePath), message: problem.message };
}

/** The same checks for a contract schema; the issue's path points at the bad key. */
export const payloadFilterSchema = z.custom<PayloadFilter>().superRefine((input, ctx) => {
  const problem = findFilterProblem(input);
  if (problem)
    ctx.addIssue({ code: 'custom', message: problem.message, path: [...problem.path], input });
});
