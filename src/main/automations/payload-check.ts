import type { FilterCheck, TestFilterResult } from '../../shared/contract/automations.js';
import {
  describeFailure,
  evaluateFilter,
  evaluateHeaderFilter,
  explainFilter,
  explainHeaderFilter,
  type FilterFailure,
  type FilterVerdict,
  type HeaderValues,
  type PayloadFilter,
} from '../../shared/filter/index.js';

export type PayloadCheck = FilterCheck;

function toCheck(
  verdict: FilterVerdict,
  filter: PayloadFilter | undefined,
  what: 'payload' | 'header',
  /** Every failing path; asked only when the check failed. */
  explain: () => FilterFailure[],
): FilterCheck {
  if (verdict.matched) {
    const empty = !filter || Object.keys(filter).length === 0;
    return {
      passed: true,
      detail: empty
        ? `no ${what} filter: every delivery matches`
        : `every key of the ${what} filter matches`,
      failures: [],
    };
  }
  const { failure } = verdict;
  return {
    passed: false,
    failingPath: failure.path,
    expected: failure.expected,
    actual: failure.actual,
    detail: describeFailure(failure),
    failures: explain(),
  };
}

/** The payload half of Test filter, shared by the API and the offline `hookport test-filter`. */
export function checkPayload(filter: PayloadFilter | undefined, payload: unknown): FilterCheck {
  return toCheck(evaluateFilter(filter, payload), filter, 'payload', () =>
    explainFilter(filter, payload),
  );
}

/**
 * The header half of Test filter. `headers` is null for an entry stored before request headers
 * were kept: a header filter cannot be checked against it.
 */
export function checkHeaders(
  filter: PayloadFilter | undefined,
  headers: HeaderValues | null,
): FilterCheck {
  if (headers === null && filter && Object.keys(filter).length > 0) {
    return {
      passed: false,
      detail:
        'the request headers of this delivery were not recorded (it came before they were kept); pick a newer delivery',
      failures: [],
    };
  }
  const values = headers ?? {};
  return toCheck(evaluateHeaderFilter(filter, values), filter, 'header', () =>
    explainHeaderFilter(filter, values),
  );
}

export const verdictOf = (...checks: Array<{ passed: boolean }>): TestFilterResult['verdict'] =>
  checks.every((c) => c.passed) ? 'Would trigger' : 'Would not trigger';
