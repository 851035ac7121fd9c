export type {
  FilterCondition,
  FilterList,
  FilterOperators,
  FilterScalar,
  PayloadFilter,
} from './types.js';
export { describeFailure, evaluateFilter, explainFilter } from './evaluate.js';
export type { FilterFailure, FilterVerdict } from './evaluate.js';
export {
  MAX_FILTER_DEPTH,
  MAX_FILTER_KEYS,
  MAX_FILTER_LIST_VALUES,
  MAX_FILTER_STRING_LENGTH,
  payloadFilterSchema,
  validateFilter,
} from './validate.js';
export type { FilterValidation } from './validate.js';
export { MAX_RENDER_LENGTH } from './render.js';
export {
  evaluateHeaderFilter,
  explainHeaderFilter,
  headerFilterSchema,
  headerValuesFromPairs,
  validateHeaderFilter,
} from './header-filter.js';
export type { HeaderFilterValidation, HeaderValues } from './header-filter.js';
export { filterWarnings } from './look-alikes.js';
export type { FilterWarning } from './look-alikes.js';
