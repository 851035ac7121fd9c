import type { ReactNode } from 'react';
import { Dialog } from './Dialog.js';

/** The second step of create and rotate: what was made (often a value shown once), then Done. */
export function DoneDialog({
  title,
  onClose,
  wide = false,
  children,
}: {
  title: string;
  onClose: () => void;
  wide?: boolean;
  children: ReactNode;
}): ReactNode {
  return (
    <Dialog title={title} onClose={onClose} wide={wide}>
      {children}
      <div className="dialog-actions">
        <button type="button" className="primary" onClick={onClose}>
          Done
        </button>
      </div>
    </Dialog>
  );
}
