import { useId, useState, type KeyboardEvent, type ReactNode } from 'react';
import { CopyButton } from '../../components/CopyButton.js';
import { formatBytes } from '../../components/format.js';
import { JsonTree } from '../../components/JsonTree.js';
import { RequestHeaders } from './RequestHeaders.js';
import type { DeliveryEntry } from './types.js';

const TABS = ['Tree', 'Raw', 'Headers'] as const;
type Tab = (typeof TABS)[number];

/**
 * The stored payload: a JSON tree to explore, or the bytes exactly as the sender sent them; and
 * beside them the request's headers (§13).
 */
export function PayloadView({
  payload,
  request,
}: {
  payload: string;
  request: Pick<DeliveryEntry, 'method' | 'path' | 'headers'>;
}): ReactNode {
  const id = useId();
  const [tab, setTab] = useState<Tab>('Tree');
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>): void => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    event.preventDefault();
    const step = event.key === 'ArrowRight' ? 1 : TABS.length - 1;
    const next = TABS[(TABS.indexOf(tab) + step) % TABS.length]!;
    setTab(next);
    document.getElementById(`${id}-${next}`)?.focus();
  };
  return (
    <div className="payload-view">
      <div className="payload-header">
        <div className="tabs" role="tablist" aria-label="Payload">
          {TABS.map((name) => (
            <button
              key={name}
              id={`${id}-${name}`}
              type="button"
              role="tab"
              aria-selected={tab === name}
              aria-controls={`${id}-panel`}
              tabIndex={tab === name ? 0 : -1}
              onClick={() => setTab(name)}
              onKeyDown={onKeyDown}
            >
              {name}
            </button>
          ))}
        </div>
        <span className="hint">{formatBytes(new TextEncoder().encode(payload).length)}</span>
        <CopyButton value={payload} label="Copy payload" />
      </div>
      <div id={`${id}-panel`} role="tabpanel" aria-labelledby={`${id}-${tab}`}>
        {tab === 'Tree' ? (
          <JsonTree text={payload} />
        ) : tab === 'Raw' ? (
          <pre className="block payload-raw" data-testid="payload-raw">
            {payload}
          </pre>
        ) : (
          <RequestHeaders {...request} />
        )}
      </div>
    </div>
  );
}
