import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

/**
 * A modal on the native <dialog>: focus moves in and is trapped by the browser, Escape closes,
 * focus returns to the opener on close.
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
    dialog.addEventListener('cancel', cancel);
    return () => {
      dialog.removeEventListener('cancel', cancel);
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
