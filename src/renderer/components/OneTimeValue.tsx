import type { ReactNode } from 'react';
import { CopyButton } from './CopyButton.js';

export interface RevealedValue {
  /** "Ingress URL", "Secret", "API token": also names the copy button. */
  label: string;
  value: string;
}

/**
 * Values the relay shows exactly once (a new secret, a rotated one, a minted token), each with a
 * copy button, and a plain warning that they will not be shown again.
 */
export function OneTimeValue({
  values,
  warning = 'You will not see this secret again. Copy it now.',
  children,
}: {
  values: RevealedValue[];
  warning?: string;
  children?: ReactNode;
}): ReactNode {
  return (
    <section className="one-time" aria-label="Shown once">
      {values.map(({ label, value }) => (
        <div key={label}>
          <div className="field-label">{label}</div>
          <div className="value">
            <code data-testid={`one-time-${label.toLowerCase().replace(/\W+/g, '-')}`}>
              {value}
            </code>
            <CopyButton value={value} label={`Copy ${label.toLowerCase()}`} />
          </div>
        </div>
      ))}
      {children}
      <p className="warning-note">
        <strong>{warning}</strong>
      </p>
    </section>
  );
}
