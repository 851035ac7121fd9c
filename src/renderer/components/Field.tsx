import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import './field.css';

export { besideField, errorAt, unclaimed } from './field-errors.js';

export interface FieldControlProps {
  id: string;
  'aria-describedby': string | undefined;
  'aria-invalid': true | undefined;
}

/** A labelled control with its hint and, when the API refused it, the error right beneath it. */
export function Field({
  label,
  hint,
  error,
  children,
}: {
  label: string;
  hint?: ReactNode;
  error?: string;
  children: (control: FieldControlProps) => ReactNode;
}): ReactNode {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({
        id,
        'aria-describedby': describedBy || undefined,
        'aria-invalid': error ? true : undefined,
      })}
      {hint && (
        <p id={hintId} className="hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="error-note" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** Why a control is disabled, said where the operator looks (not only in a tooltip). */
export function BlockNote({ reason }: { reason: string | null }): ReactNode {
  if (!reason) return null;
  return <p className="hint block-note">{reason}</p>;
}

type InputAttributes = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'id' | 'value' | 'onChange' | 'aria-describedby' | 'aria-invalid'
>;

/** The common case: a labelled one-line text input with its hint and the API's error. */
export function TextField({
  label,
  hint,
  error,
  value,
  onChange,
  ...input
}: {
  label: string;
  hint?: ReactNode;
  error?: string | undefined;
  value: string;
  onChange: (value: string) => void;
} & InputAttributes): ReactNode {
  return (
    <Field label={label} hint={hint} error={error}>
      {(control) => (
        <input
          autoComplete="off"
          {...input}
          {...control}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}
