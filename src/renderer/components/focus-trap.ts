const CANDIDATES =
  'a[href], button, input:not([type="hidden"]), select, textarea, [tabindex]:not([tabindex="-1"])';

/** What Tab can reach inside `container`, in order: enabled, shown, not taken out of the order. */
function tabbable(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(CANDIDATES)].filter(
    (element) =>
      element.tabIndex >= 0 &&
      !element.matches(':disabled') &&
      element.getClientRects().length > 0 &&
      // Of a radio group only the checked radio (or the first, when none is) takes a Tab stop.
      !(
        element instanceof HTMLInputElement &&
        element.type === 'radio' &&
        !element.checked &&
        element.name !== '' &&
        container.querySelector(`input[type="radio"][name="${CSS.escape(element.name)}"]:checked`)
      ),
  );
}

/**
 * Tab past the last control (or Shift+Tab before the first) wraps around inside `container`. A
 * native modal <dialog> makes the page inert, yet Chromium still lets focus leave it for the
 * document before it wraps: a keyboard user lands nowhere.
 */
export function keepTabInside(container: HTMLElement, event: KeyboardEvent): void {
  if (event.key !== 'Tab' || event.altKey || event.ctrlKey || event.metaKey) return;
  const stops = tabbable(container);
  const first = stops[0];
  const last = stops.at(-1);
  if (!first || !last) return;
  const active = document.activeElement;
  const outside = !(active instanceof Node) || !container.contains(active) || active === container;
  if (event.shiftKey && (outside || active === first)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (outside || active === last)) {
    event.preventDefault();
    first.focus();
  }
}
