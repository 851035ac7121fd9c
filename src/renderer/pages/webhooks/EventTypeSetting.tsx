import type { ReactNode } from 'react';
import { useToast } from '../../components/toasts.js';
import { EVENT_TYPE_PATH_HINT, schemeEventSource } from './event-type-words.js';
import { InlineEdit } from './InlineEdit.js';
import { checkWebhookField } from './webhook-field-check.js';
import type { Webhook } from './types.js';

/** The detail pane's "Event type" row: the provider's own source, or the editable path. */
export function EventTypeSetting({
  webhook,
  blocked,
  onSave,
}: {
  webhook: Webhook;
  blocked: string | null;
  onSave: (eventTypePath: string | null) => Promise<void>;
}): ReactNode {
  const toast = useToast();
  const source =
    webhook.authMode === 'signature' && webhook.signatureScheme !== null
      ? schemeEventSource(webhook.signatureScheme)
      : null;
  if (source !== null) return <span className="muted">from {source}</span>;
  return (
    <InlineEdit
      label="Event type path"
      value={webhook.eventTypePath ?? ''}
      check={checkWebhookField('eventTypePath', 'The path')}
      placeholder="type or header:X-Event"
      hint={EVENT_TYPE_PATH_HINT}
      blocked={blocked}
      display={
        webhook.eventTypePath ? (
          <code>{webhook.eventTypePath}</code>
        ) : (
          <span className="muted">none</span>
        )
      }
      onSave={async (path) => {
        await onSave(path === '' ? null : path);
        toast(
          'success',
          path === '' ? 'Event type path removed.' : `Event type read from ${path}.`,
        );
      }}
    />
  );
}
