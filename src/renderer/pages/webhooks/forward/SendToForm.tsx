import { useState, type ReactNode } from 'react';
import { useClient } from '../../../app/client-context.js';
import { useFormAction } from '../../../app/use-action.js';
import { ErrorNote } from '../../../components/ErrorNote.js';
import { useToast } from '../../../components/toasts.js';
import type { Webhook } from '../types.js';
import { sentToast } from './attempt-words.js';
import { ForwardTarget } from './ForwardTarget.js';
import type { useRememberedUrls } from './remembered-urls.js';
import { useRemoteSigning } from './remote-signing.js';

/** Send to…: the stored delivery, as stored, to a handler the tester names. */
export function SendToForm({
  deliveryId,
  webhook,
  remembered,
  onClose,
}: {
  deliveryId: string;
  webhook: Webhook;
  remembered: ReturnType<typeof useRememberedUrls>;
  onClose: () => void;
}): ReactNode {
  const client = useClient();
  const toast = useToast();
  const [url, setUrl] = useState(remembered.urls[0] ?? '');
  const [sign, setSign] = useState(true);
  const remote = useRemoteSigning();
  const input = { id: deliveryId, url: url.trim(), sign, allowRemoteSigning: remote.allowed };
  const send = useFormAction(async () => {
    const { attempt } = await client.call('deliveries.forward', input).catch((error: unknown) => {
      remote.noteRefusal(error);
      throw error;
    });
    remembered.remember(attempt.url);
    const message = sentToast(attempt);
    toast(message.kind, message.text);
  }, input);
  return (
    <form className="forward-form" aria-label="Send to a handler" onSubmit={send.onSubmit}>
      <ForwardTarget
        webhook={webhook}
        url={url}
        sign={sign}
        urls={remembered.urls}
        onUrl={setUrl}
        onSign={setSign}
        onForget={remembered.forget}
        remote={remote}
      />
      <ErrorNote error={send.error} />
      <div className="actions">
        <button type="submit" className="primary" disabled={send.busy || url.trim() === ''}>
          {send.busy ? 'Sending…' : 'Send'}
        </button>
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <span className="hint">
          The stored bytes and headers go out; credentials never do. The answer appears below.
        </span>
      </div>
    </form>
  );
}
