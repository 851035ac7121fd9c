import { useId, useState, type ReactNode } from 'react';
import { useClient } from '../../../app/client-context.js';
import { useFormAction } from '../../../app/use-action.js';
import { Dialog } from '../../../components/Dialog.js';
import { ErrorNote } from '../../../components/ErrorNote.js';
import { formatBytes } from '../../../components/format.js';
import { useToast } from '../../../components/toasts.js';
import { MAX_BODY_BYTES } from '../../../../shared/limits.js';
import type { Webhook } from '../types.js';
import { sentToast } from './attempt-words.js';
import { ForwardTarget } from './ForwardTarget.js';
import type { useRememberedUrls } from './remembered-urls.js';
import { useRemoteSigning } from './remote-signing.js';
import { DialogActions } from '../../../components/DialogActions.js';

const encoder = new TextEncoder();

/** Whether the text is JSON, and where it stops being JSON. */
function jsonNote(text: string): { ok: boolean; text: string } {
  try {
    JSON.parse(text);
    return { ok: true, text: 'Valid JSON.' };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      text: `Not valid JSON (${reason}). It is sent exactly as typed, which is how to test a handler's error path.`,
    };
  }
}

/** Edit and send: the payload in a JSON editor, sent (and signed) as edited; marked as edited. */
export function EditAndSendDialog({
  deliveryId,
  webhook,
  payload,
  remembered,
  onClose,
}: {
  deliveryId: string;
  webhook: Webhook;
  payload: string;
  remembered: ReturnType<typeof useRememberedUrls>;
  onClose: () => void;
}): ReactNode {
  const id = useId();
  const client = useClient();
  const toast = useToast();
  const [body, setBody] = useState(payload);
  const [url, setUrl] = useState(remembered.urls[0] ?? '');
  const [sign, setSign] = useState(true);
  const note = jsonNote(body);
  const size = encoder.encode(body).length;
  const remote = useRemoteSigning();
  const input = { id: deliveryId, url: url.trim(), sign, body, allowRemoteSigning: remote.allowed };
  const send = useFormAction(async () => {
    const { attempt } = await client.call('deliveries.forward', input).catch((error: unknown) => {
      remote.noteRefusal(error);
      throw error;
    });
    remembered.remember(attempt.url);
    const message = sentToast(attempt);
    toast(message.kind, message.text);
    onClose();
  }, input);
  const pretty = (): void => {
    try {
      setBody(JSON.stringify(JSON.parse(body), null, 2));
    } catch {
      // Only valid JSON can be formatted; the note already says why not.
    }
  };
  return (
    <Dialog title={`Edit and send ${deliveryId}`} onClose={onClose} wide>
      <form className="form edit-and-send" onSubmit={send.onSubmit}>
        <label htmlFor={`${id}-body`}>Payload (edited)</label>
        <textarea
          id={`${id}-body`}
          className="json-editor"
          rows={16}
          spellCheck={false}
          value={body}
          aria-invalid={!note.ok}
          aria-describedby={`${id}-note`}
          onChange={(event) => setBody(event.target.value)}
        />
        <p id={`${id}-note`} className={note.ok ? 'hint' : 'warning-note'} aria-live="polite">
          {note.text} {formatBytes(size)}
          {size > MAX_BODY_BYTES && ` — over the ${formatBytes(MAX_BODY_BYTES)} limit`}
          {body !== payload && ' · edited'}
        </p>
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
        <DialogActions
          submitLabel={send.busy ? 'Sending…' : 'Send edited'}
          onCancel={onClose}
          disabled={send.busy || url.trim() === '' || size > MAX_BODY_BYTES}
        >
          <button type="button" onClick={pretty} disabled={!note.ok}>
            Format
          </button>
          <button type="button" onClick={() => setBody(payload)} disabled={body === payload}>
            Reset to stored
          </button>
          <span className="spacer" />
        </DialogActions>
      </form>
    </Dialog>
  );
}
