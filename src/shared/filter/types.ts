/** The payload filter grammar (PRODUCT.md §6), shared by the validator and the evaluator. */

export type FilterScalar = string | number | boolean | null;
export type FilterList = readonly FilterScalar[];

/** A key's value is read as operators only when every one of its keys is an operator. */
export interface FilterOperators {
  readonly in?: FilterList;
  readonly not_in?: FilterList;
  readonly exists?: boolean;
}

export type FilterCondition = FilterScalar | FilterList | FilterOperators | PayloadFilter;

export interface PayloadFilter {
  readonly [key: string]: FilterCondition;
}

export const OPERATOR_KEYS: ReadonlySet<string> = new Set(['in', 'not_in', 'exists']);

export function isFilterScalar(value: unknown): value is FilterScalar {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'boolean'
  );
}

export function isArray(value: unknown): value is readonly unknown[] {
  return Array.isArray(value);
}

export function isFilterList(value: FilterCondition): value is FilterList {
  return Array.isArray(value);
}

/** Any non-null, non-array object: payloads come from JSON.parse, so their prototype is not checked. */
export function isJsonObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isOperatorObject(value: FilterOperators | PayloadFilter): value is FilterOperators {
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => OPERATOR_KEYS.has(key));
}
