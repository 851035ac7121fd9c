import type { ReactNode } from 'react';
import type { TestFilterResult } from '../../shared/contract/automations.js';

function Check({
  name,
  passed,
  detail,
}: {
  name: string;
  passed: boolean;
  detail: string;
}): ReactNode {
  return (
    <li className={passed ? 'check check-pass' : 'check check-fail'}>
      <span aria-hidden="true">{passed ? '✓' : '✗'}</span>
      <span className="check-name">
        {name} {passed ? 'passed' : 'failed'}
      </span>
      <span className="check-detail">{detail}</span>
    </li>
  );
}

/** Test filter's answer as UI.md draws it: the verdict, then the webhook, payload and header checks. */
export function FilterVerdict({ result }: { result: TestFilterResult }): ReactNode {
  const triggers = result.verdict === 'Would trigger';
  return (
    <section className="verdict" aria-label="Test filter result" aria-live="polite">
      <p className={triggers ? 'verdict-title verdict-yes' : 'verdict-title verdict-no'}>
        {result.verdict}
      </p>
      <ul className="checks">
        <Check name="Webhook check" {...result.webhookCheck} />
        <Check name="Payload check" {...result.payloadCheck} />
        {/* Shown once the trigger has a header filter (or a header check could not be made). */}
        {!(
          result.headerCheck.passed && result.headerCheck.detail.startsWith('no header filter')
        ) && <Check name="Header check" {...result.headerCheck} />}
      </ul>
    </section>
  );
}
