import type { ReactNode } from 'react';
import type { TestFilterResult } from '../../../shared/contract/automations.js';

/** Every path of a filter that fails for the delivery, with expected and actual. */
export function FailingPaths({
  failures,
  of = 'payload',
}: {
  failures: TestFilterResult['payloadCheck']['failures'];
  of?: 'payload' | 'headers';
}): ReactNode {
  if (failures.length === 0) return null;
  return (
    <table
      className="table failure-fields"
      aria-label={of === 'payload' ? 'Failing paths' : 'Failing headers'}
    >
      <thead>
        <tr>
          <th scope="col">{of === 'payload' ? 'Failing path' : 'Failing header'}</th>
          <th scope="col">Expected</th>
          <th scope="col">Actual</th>
        </tr>
      </thead>
      <tbody>
        {failures.map((failure, index) => (
          <tr key={`${index}-${failure.path}`}>
            <td>
              <code>{failure.path === '' ? '(the body itself)' : failure.path}</code>
            </td>
            <td>
              <code>{failure.expected}</code>
            </td>
            <td>
              <code>{failure.actual}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
