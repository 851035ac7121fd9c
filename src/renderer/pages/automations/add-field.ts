import type { SeenField } from '../../../shared/contract/filter-lab.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (value: unknown): value is Record<string, Json> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const OPERATORS = new Set(['in', 'not_in', 'exists']);
const isOperatorObject = (value: Record<string, Json>): boolean => {
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => OPERATORS.has(key));
};

/** The condition a picked field starts with: equal to the example, or present when it has none. */
function startingCondition(field: SeenField): Json {
  const scalar = ['string', 'number', 'boolean', 'null'].includes(field.type);
  if (scalar && !field.example.endsWith('…')) {
    try {
      return JSON.parse(field.example) as Json;
    } catch {
      // A cut example is not JSON: fall back to "present".
    }
  }
  return { exists: true };
}

/**
 * Adds a seen field to the filter text as a key (nested as the payload nests it), starting as
 * "equals the example value", for the operator to edit. The filter is rewritten as pretty JSON.
 */
export function addField(
  filterText: string,
  field: SeenField,
): { ok: true; text: string } | { ok: false; message: string } {
  let filter: unknown;
  try {
    filter = filterText.trim() === '' ? {} : JSON.parse(filterText);
  } catch {
    return { ok: false, message: 'Fix the filter’s JSON first, then add the field.' };
  }
  if (!isObject(filter)) return { ok: false, message: 'The filter must be a JSON object.' };
  let node: Record<string, Json> = filter;
  for (const [index, key] of field.keys.entries()) {
    const last = index === field.keys.length - 1;
    const here = field.keys.slice(0, index + 1).join('.');
    if (last) {
      if (Object.hasOwn(node, key)) {
        return { ok: false, message: `${here} is in the filter already.` };
      }
      node[key] = startingCondition(field);
      break;
    }
    if (!Object.hasOwn(node, key)) node[key] = {};
    const next = node[key];
    if (!isObject(next) || isOperatorObject(next)) {
      return { ok: false, message: `${here} already tests a value; edit it by hand.` };
    }
    node = next;
  }
  return { ok: true, text: JSON.stringify(filter, null, 2) };
}
