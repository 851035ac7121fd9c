import { useState, type ReactNode } from 'react';
import { useWriteBlock } from '../../../app/relay-context.js';
import type { Webhook } from '../types.js';
import { AttemptsTimeline } from './AttemptsTimeline.js';
import { EditAndSendDialog } from './EditAndSendDialog.js';
import { useRememberedUrls } from './remembered-urls.js';
import { SendToForm } from './SendToForm.js';
import './forward.css';

/** The tester's loop for one stored delivery: Send to…, Edit and send, and what came back. */
export function ForwardPanel({
  deliveryId,
  webhook,
  payload,
}: {
  deliveryId: string;
  webhook: Webhook;
  payload: string;
}): ReactNode {
  const blocked = useWriteBlock();
  const remembered = useRememberedUrls();
  const [open, setOpen] = useState<'send' | 'edit' | null>(null);
  return (
    <div className="forward-panel">
      <div className="actions">
        <button
          type="button"
          aria-expanded={open === 'send'}
          disabled={blocked !== null}
          title={blocked ?? 'Send this delivery to your own handler, re-signed'}
          onClick={() => setOpen(open === 'send' ? null : 'send')}
        >
          Send to…
        </button>
        <button
          type="button"
          disabled={blocked !== null}
          title={blocked ?? 'Edit the payload, then send it to your own handler'}
          onClick={() => setOpen('edit')}
        >
          Edit and send
        </button>
      </div>
      {open === 'send' && (
        <SendToForm
          deliveryId={deliveryId}
          webhook={webhook}
          remembered={remembered}
          onClose={() => setOpen(null)}
        />
      )}
      {open === 'edit' && (
        <EditAndSendDialog
          deliveryId={deliveryId}
          webhook={webhook}
          payload={payload}
          remembered={remembered}
          onClose={() => setOpen(null)}
        />
      )}
      <AttemptsTimeline deliveryId={deliveryId} />
    </div>
  );
}
