import { useState, type ReactNode } from 'react';
import { Dialog } from './Dialog.js';
import { ErrorNote } from './ErrorNote.js';
import { toApiError } from '../app/use-call.js';
import type { ApiError } from '../../shared/errors.js';
import { DialogActions } from './DialogActions.js';

/** Destructive actions confirm and name the consequence; the error, if any, stays in the dialog. */
export function ConfirmDialog({
  title,
  confirmLabel,
  destructive = false,
  onConfirm,
  onClose,
  children,
}: {
  title: string;
  confirmLabel: string;
  destructive?: boolean;
  onConfirm: () => Promise<void>;
  onClose: () => void;
  children: ReactNode;
}): ReactNode {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const confirm = async (): Promise<void> => {
    setBusy(true);
    setError(undefined);
    try {
      await onConfirm();
    } catch (failure) {
      setError(toApiError(failure));
      setBusy(false);
    }
  };
  return (
    <Dialog title={title} onClose={onClose}>
      {/* A form, so that Enter in a field of the confirmation (a new value, say) confirms. */}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void confirm();
        }}
      >
        <div className="confirm-text">{children}</div>
        {/* A confirmation holds at most one field, right above the note. */}
        <ErrorNote error={error} atField />
        <DialogActions
          submitLabel={confirmLabel}
          onCancel={onClose}
          disabled={busy}
          destructive={destructive}
        />
      </form>
    </Dialog>
  );
}
