import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { keepTabInside } from './focus-trap.js';

/**
 * A modal on the native <dialog>: focus moves in and Tab wraps inside it, Escape closes, focus
 * returns to the opener on close.
 */
export function Dialog({
  title,
  onClose,
  children,
  wide = false,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
}): ReactNode {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const latestOnClose = useRef(onClose);
  useEffect(() => {
    latestOnClose.current = onClose;
  });
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement as HTMLElement | null;
    dialog.showModal();
    // The browser would focus the header's close button; the first field (or Cancel) is what a
    // keyboard user wants.
    const first = dialog.querySelector<HTMLElement>(
      '.dialog-body [autofocus], .dialog-body input:not([type="hidden"]), .dialog-body select, .dialog-body textarea, .dialog-actions button',
    );
    first?.focus();
    const cancel = (event: Event): void => {
      event.preventDefault();
      latestOnClose.current();
    };
    // On the document, so a Tab pressed while focus sits on the body still comes back in; only
    // the newest open dialog (portalled last) takes it.
    const trap = (event: KeyboardEvent): void => {
      if ([...document.querySelectorAll('dialog[open]')].at(-1) === dialog)
        keepTabInside(dialog, event);
    };
    dialog.addEventListener('cancel', cancel);
    document.addEventListener('keydown', trap);
    return () => {
      dialog.removeEventListener('cancel', cancel);
      document.removeEventListener('keydown', trap);
      dialog.close();
      opener?.focus();
    };
  }, []);
  // Portalled, so a dialog opened from inside a page's form never nests forms or inherits layout.
  return createPortal(
    <dialog ref={ref} className={wide ? 'dialog dialog-wide' : 'dialog'} aria-labelledby={titleId}>
      <header className="dialog-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="icon-button" onClick={onClose} aria-label="Close">
          ×
        </button>
      </header>
      <div className="dialog-body">{children}</div>
    </dialog>,
    document.body,
  );
}
