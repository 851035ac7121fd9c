import type { ReactNode } from 'react';

/** A form dialog's closing row: Cancel, then the submit button (the dialog's one action). */
export function DialogActions({
  submitLabel,
  onCancel,
  disabled,
  why,
  destructive = false,
  children,
}: {
  submitLabel: string;
  onCancel: () => void;
  disabled: boolean;
  /** Why the action is disabled, as its tooltip. */
  why?: string;
  destructive?: boolean;
  /** Buttons before Cancel (the dialog's own tools). */
  children?: ReactNode;
}): ReactNode {
  return (
    <div className="dialog-actions">
      {children}
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
      <button
        type="submit"
        className={destructive ? 'danger' : 'primary'}
        disabled={disabled}
        title={why}
      >
        {submitLabel}
      </button>
    </div>
  );
}
