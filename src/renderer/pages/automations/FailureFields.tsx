import type { ReactNode } from 'react';
import type { FilterCheck } from '../../../shared/contract/automations.js';

/** A failed payload or header check: the first failing path, expected and actual value. */
export function FailureFields({
  check,
  what,
}: {
  check: FilterCheck;
  what: 'Payload' | 'Header';
}): ReactNode {
  // A failed header check without a path: the delivery's headers were never recorded.
  if (check.failingPath === undefined) return null;
  const path = check.failingPath === '' ? '(the body itself)' : check.failingPath;
  return (
    <dl className="fields failure-fields" aria-label={`${what} check failure`}>
      <dt>Failing {what === 'Header' ? 'header' : 'path'}</dt>
      <dd>
        <code>{path}</code>
      </dd>
      <dt>Expected</dt>
      <dd>
        <code>{check.expected}</code>
      </dd>
      <dt>Actual</dt>
      <dd>
        <code>{check.actual}</code>
      </dd>
    </dl>
  );
}
