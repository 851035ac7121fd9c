import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

export const WEBHOOK_TABS = ['Deliveries', 'Settings', 'Volume', 'Refused'] as const;
export type WebhookTab = (typeof WEBHOOK_TABS)[number];

/**
 * A webhook's page in tabs: Recent deliveries first (what the page is for), the settings, the
 * volume chart and the refused requests one click away. Arrow keys move between tabs (WAI-ARIA
 * tabs pattern); the panel is whatever `children` renders for the selected one.
 */
export function WebhookTabs({
  tab,
  onTab,
  children,
}: {
  tab: WebhookTab;
  onTab: (tab: WebhookTab) => void;
  children: ReactNode;
}): ReactNode {
  const id = useId();
  const list = useRef<HTMLDivElement>(null);
  const onKeyDown = (event: KeyboardEvent): void => {
    const at = WEBHOOK_TABS.indexOf(tab);
    const moves: Record<string, number> = {
      ArrowRight: at + 1,
      ArrowLeft: at - 1 + WEBHOOK_TABS.length,
      Home: 0,
      End: WEBHOOK_TABS.length - 1,
    };
    const move = moves[event.key];
    if (move === undefined) return;
    event.preventDefault();
    const next = WEBHOOK_TABS[move % WEBHOOK_TABS.length]!;
    onTab(next);
    list.current?.querySelector<HTMLElement>(`[data-tab="${next}"]`)?.focus();
  };
  return (
    <>
      <div
        ref={list}
        className="tabs webhook-tabs"
        role="tablist"
        aria-label="Webhook sections"
        onKeyDown={onKeyDown}
      >
        {WEBHOOK_TABS.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            id={`${id}-${name}`}
            data-tab={name}
            aria-selected={tab === name}
            aria-controls={`${id}-panel`}
            tabIndex={tab === name ? 0 : -1}
            onClick={() => onTab(name)}
          >
            {name}
          </button>
        ))}
      </div>
      <div
        id={`${id}-panel`}
        className="webhook-tab-panel"
        role="tabpanel"
        aria-labelledby={`${id}-${tab}`}
      >
        {children}
      </div>
    </>
  );
}
