import type { TestFilterResult } from '../../shared/contract/automations.js';
import {
  describeFailure,
  evaluateFilter,
  explainFilter,
  type PayloadFilter,
} from '../../shared/filter/index.js';

export type PayloadCheck = TestFilterResult['payloadCheck'];

/** The payload half of Test filter, shared by the API and the offline `hookport test-filter`. */
export function checkPayload(filter: PayloadFilter | undefined, payload: unknown): PayloadCheck {
  const verdict = evaluateFilter(filter, payload);
  if (verdict.matched) {
    const empty = !filter || Object.keys(filter).length === 0;
    return {
      passed: true,
      detail: empty
        ? 'no payload filter: every delivery matches'
        : 'every key of the payload filter matches',
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
    failures: explainFilter(filter, payload),
  };
}

export const verdictOf = (...checks: Array<{ passed: boolean }>): TestFilterResult['verdict'] =>
  checks.every((c) => c.passed) ? 'Would trigger' : 'Would not trigger';
