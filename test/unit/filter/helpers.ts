import { validateFilter, type PayloadFilter } from '../../../src/shared/filter/index.js';

/** Parses JSON text: the only way to get an own `__proto__` key, as a real delivery would. */
export function json(text: string): unknown {
  return JSON.parse(text) as unknown;
}

/** A filter the validator accepts; a table row with an invalid filter fails loudly. */
export function filter(input: unknown): PayloadFilter {
  const result = validateFilter(input);
  if (!result.ok) throw new Error(`invalid test filter: ${result.path}: ${result.message}`);
  return result.filter;
}
