import { useEffect, useRef, type ReactNode } from 'react';
import { DeliveryDetail } from './DeliveryDetail.js';
import type { Webhook } from './types.js';

/** Escape anywhere on the page closes the panel, unless a dialog is open or a field takes it. */
function useEscape(onEscape: () => void): void {
  const latest = useRef(onEscape);
  useEffect(() => {
    latest.current = onEscape;
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      if (document.querySelector('dialog[open]')) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, [contenteditable="true"]')) return;
      latest.current();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}

/**
 * The opened delivery where the eye is: beside the list on a wide window, over its right side
 * on a narrow one (styles decide), always within the viewport. Escape closes it.
 */
export function DeliveryPanel({
  id,
  deliveryId,
  webhook,
  onClose,
}: {
  id: string;
  deliveryId: string;
  webhook: Webhook;
  onClose: () => void;
}): ReactNode {
  useEscape(onClose);
  return (
    <div className="delivery-panel">
      <DeliveryDetail
        key={deliveryId}
        id={id}
        deliveryId={deliveryId}
        webhook={webhook}
        onClose={onClose}
      />
    </div>
  );
}
