import { formatPath, type PathSegment } from './path.js';
import { OPERATOR_KEYS } from './types.js';

/**
 * Keys that look like operators but are not (MongoDB's `$gt`, a misspelt `notIn`): the filter
 * is valid, and means a payload field of that name, which is seldom what was meant. The editor
 * shows these as warnings beside the filter; saving stays allowed (a payload may really have a
 * field named `$schema` or `gt`).
 */
const OPERATOR_WORDS = new Set([
  'gt',
  'gte',
  'lt',
  'lte',
  'eq',
  'ne',
  'neq',
  'nin',
  'notin',
  'not-in',
  'exist',
  'contains',
  'regex',
  'match',
  'matches',
  'not',
  'and',
  'or',
  'any',
  'all',
  'startswith',
  'endswith',
]);
const OPERATORS_ARE = `the operators are ${[...OPERATOR_KEYS].join(', ')}`;

export interface FilterWarning {
  path: string;
  message: string;
}

function lookAlike(key: string): string | null {
  if (OPERATOR_KEYS.has(key)) return null;
  const bare = key.replace(/^\$+/, '');
  const folded = bare.toLowerCase().replace(/_/g, '');
  if (key.startsWith('$')) {
    return OPERATOR_KEYS.has(bare)
      ? `\`${key}\` is not an operator here: write "${bare}" without the $`
      : `\`${key}\` is not an operator here; ${OPERATORS_ARE}`;
  }
  const operator = [...OPERATOR_KEYS].find((op) => op.replace(/_/g, '') === folded);
  if (operator !== undefined) return `\`${key}\` is not an operator here: write "${operator}"`;
  return OPERATOR_WORDS.has(folded) || OPERATOR_WORDS.has(bare.toLowerCase())
    ? `\`${key}\` is not an operator here; ${OPERATORS_ARE}`
    : null;
}

/** Operator look-alikes among the keys of a valid filter, each with its path and a sentence. */
export function filterWarnings(filter: unknown, basePath = 'payload'): FilterWarning[] {
  const found: FilterWarning[] = [];
  const walk = (value: unknown, path: PathSegment[]): void => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
    for (const [key, inner] of Object.entries(value)) {
      const at = [...path, key];
      // A top-level key is always a field (operators go inside a field's condition): there only
      // a `$` key is suspect; a top-level "gt" is most likely a real field.
      const message = path.length === 0 && !key.startsWith('$') ? null : lookAlike(key);
      if (message !== null) found.push({ path: formatPath(at, basePath), message });
      walk(inner, at);
    }
  };
  walk(filter, []);
  return found;
}
