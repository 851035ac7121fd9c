import { useEffect, type RefObject } from 'react';

/**
 * Publishes the status line's height as `--status-line-height` on the document, so that what
 * floats over the page (toasts, the delivery overlay on a narrow window) stops above it however
 * many lines it wraps to: its alarms are never covered.
 */
export function useStatusLineHeight(footer: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const element = footer.current;
    if (!element) return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() =>
      root.style.setProperty('--status-line-height', `${element.offsetHeight}px`),
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--status-line-height');
    };
  }, [footer]);
}
