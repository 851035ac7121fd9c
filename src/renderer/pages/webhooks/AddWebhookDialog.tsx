import { useId, useState, type ReactNode } from 'react';
import { useClient } from '../../app/client-context.js';
import { useRelay } from '../../app/relay-context.js';
import { useFormAction } from '../../app/use-action.js';
import { Dialog } from '../../components/Dialog.js';
import { DoneDialog } from '../../components/DoneDialog.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import type { MethodInput } from '../../../shared/contract/index.js';
import { AUTH_MODES, type AuthMode } from '../../../shared/contract/webhooks.js';
import { ApiError } from '../../../shared/errors.js';
import { CreatedPanel } from './CreatedPanel.js';
import { takesOptions } from '../../../shared/providers/index.js';
import { checkNewWebhook } from './add-webhook-check.js';
import { EVENT_TYPE_PATH_HINT, takesEventTypePath } from './event-type-words.js';
import { errorFor, FieldError } from './FieldError.js';
import { SecretFields, type SecretDraft } from './SecretFields.js';
import { SignatureFields, type SignatureDraft } from './SignatureFields.js';
import type { CreatedWebhook } from './types.js';
import { MODE_NAMES } from './words.js';
import { DialogActions } from '../../components/DialogActions.js';

const MODE_HINTS: Record<AuthMode, string> = {
  token: 'The sender puts the generated secret in an Authorization: Bearer header.',
  url_token: 'The secret is the last segment of the URL: the URL itself is the credential.',
  signature: 'The provider signs each request; the relay checks it with the signing secret.',
};

type Draft = SignatureDraft &
  SecretDraft & {
    name: string;
    authMode: AuthMode;
    deliveryIdHeader: string;
    eventTypePath: string;
  };

const EMPTY: Draft = {
  name: '',
  authMode: 'token',
  scheme: 'github',
  hmacHeader: '',
  hmacEncoding: 'hex',
  hmacPrefix: '',
  source: 'new',
  newName: '',
  existingName: '',
  signingSecret: '',
  deliveryIdHeader: '',
  eventTypePath: '',
};

function toInput(draft: Draft, managed: boolean): MethodInput<'webhooks.create'> {
  const input: MethodInput<'webhooks.create'> = {
    name: draft.name.trim(),
    authMode: draft.authMode,
  };
  const existing = managed || draft.source === 'existing';
  if (draft.authMode === 'signature') {
    input.signatureScheme = draft.scheme;
    if (takesOptions(draft.scheme)) {
      input.signatureOptions = {
        header: draft.hmacHeader.trim(),
        encoding: draft.hmacEncoding,
        prefix: draft.hmacPrefix,
      };
    }
    if (!existing && draft.signingSecret !== '') input.secret = draft.signingSecret;
  }
  if (existing) {
    if (draft.existingName === '')
      throw new ApiError(
        'invalid_input',
        'Choose a team secret, or use a new secret.',
        'secretName',
      );
    input.secretName = draft.existingName;
  } else if (draft.newName.trim() !== '') input.secretName = draft.newName.trim();
  if (draft.deliveryIdHeader.trim() !== '') input.deliveryIdHeader = draft.deliveryIdHeader.trim();
  const scheme = draft.authMode === 'signature' ? draft.scheme : null;
  if (takesEventTypePath(draft.authMode, scheme) && draft.eventTypePath.trim() !== '')
    input.eventTypePath = draft.eventTypePath.trim();
  return input;
}

/** Add webhook: the form, then the ingress URL and secret shown once. */
export function AddWebhookDialog({
  onClose,
  onCreated,
  onDone,
}: {
  onClose: () => void;
  onCreated: () => void;
  onDone: (uid: string) => void;
}): ReactNode {
  const id = useId();
  const client = useClient();
  const { factory } = useRelay();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [created, setCreated] = useState<CreatedWebhook>();
  const change = (patch: Partial<Draft>): void => setDraft((d) => ({ ...d, ...patch }));

  // The draft is the input: an error the operator has corrected goes as they type.
  const live = checkNewWebhook(() => toInput(draft, factory.managed));
  const {
    onSubmit,
    busy,
    error: refused,
  } = useFormAction(async () => {
    if (live.submit) throw live.submit;
    const result = await client.call('webhooks.create', toInput(draft, factory.managed));
    setCreated(result);
    onCreated();
  }, draft);

  if (created) {
    const close = (): void => onDone(created.webhook.uid);
    return (
      <DoneDialog title={`Webhook ${created.webhook.name} is ready`} onClose={close} wide>
        <CreatedPanel
          webhook={created.webhook}
          ingressUrl={created.ingressUrl}
          secret={created.secret}
        />
      </DoneDialog>
    );
  }

  // The relay's refusal of what was sent, else what the contract's rule says of what is typed.
  const error = refused ?? live.typing;
  const nameError = errorFor(error, 'name');
  const headerError = errorFor(error, 'deliveryIdHeader');
  const eventTypeError = errorFor(error, 'eventTypePath');
  const showsEventTypePath = takesEventTypePath(
    draft.authMode,
    draft.authMode === 'signature' ? draft.scheme : null,
  );
  const placed = [
    'name',
    'deliveryIdHeader',
    'eventTypePath',
    'signatureScheme',
    'signatureOptions',
    'secret',
    'secretName',
  ];
  const unplaced = error && !errorFor(error, ...placed) ? error : undefined;
  return (
    <Dialog title="Add webhook" onClose={onClose} wide>
      <form className="form add-webhook" onSubmit={onSubmit} noValidate>
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          id={`${id}-name`}
          ref={(input) => input?.setAttribute('autofocus', '')}
          value={draft.name}
          spellCheck={false}
          autoComplete="off"
          placeholder="github-prod"
          aria-invalid={nameError ? true : undefined}
          aria-describedby={`${id}-name-hint ${id}-name-error`}
          onChange={(event) => change({ name: event.target.value })}
        />
        <FieldError id={`${id}-name-error`} error={nameError} />
        <p id={`${id}-name-hint`} className="hint">
          Shown in the automation editor. Letters, digits, “.”, “_” or “-”.
        </p>

        <fieldset>
          <legend>Authentication mode</legend>
          <div className="mode-options">
            {AUTH_MODES.map((mode) => (
              <div key={mode} className="mode-option">
                <input
                  id={`${id}-mode-${mode}`}
                  type="radio"
                  name={`${id}-mode`}
                  value={mode}
                  checked={draft.authMode === mode}
                  aria-describedby={`${id}-mode-${mode}-hint`}
                  onChange={() => change({ authMode: mode })}
                />
                <div>
                  <label htmlFor={`${id}-mode-${mode}`}>
                    {MODE_NAMES[mode]} <code className="muted">{mode}</code>
                  </label>
                  <span id={`${id}-mode-${mode}-hint`} className="hint mode-hint">
                    {MODE_HINTS[mode]}
                  </span>
                </div>
              </div>
            ))}
          </div>
        </fieldset>

        {draft.authMode === 'signature' && (
          <SignatureFields draft={draft} onChange={change} error={error} />
        )}
        <SecretFields
          draft={draft}
          onChange={change}
          webhookName={draft.name}
          signatureScheme={draft.authMode === 'signature' ? draft.scheme : null}
          managed={factory.managed}
          error={error}
        />

        <label htmlFor={`${id}-header`}>Delivery ID header (optional)</label>
        <input
          id={`${id}-header`}
          value={draft.deliveryIdHeader}
          spellCheck={false}
          placeholder="X-Request-Id"
          aria-invalid={headerError ? true : undefined}
          aria-describedby={`${id}-header-hint ${id}-header-error`}
          onChange={(event) => change({ deliveryIdHeader: event.target.value })}
        />
        <FieldError id={`${id}-header-error`} error={headerError} />
        <p id={`${id}-header-hint`} className="hint">
          The header in which the sender puts its own event ID. Deliveries with an ID already
          accepted are logged as Duplicate and start no run.
        </p>

        {showsEventTypePath && (
          <>
            <label htmlFor={`${id}-event-type`}>Event type path (optional)</label>
            <input
              id={`${id}-event-type`}
              value={draft.eventTypePath}
              spellCheck={false}
              placeholder="type or header:X-Event"
              aria-invalid={eventTypeError ? true : undefined}
              aria-describedby={`${id}-event-type-hint ${id}-event-type-error`}
              onChange={(event) => change({ eventTypePath: event.target.value })}
            />
            <FieldError id={`${id}-event-type-error`} error={eventTypeError} />
            <p id={`${id}-event-type-hint`} className="hint">
              Where each delivery names its event, shown in Recent deliveries and given to runs.{' '}
              {EVENT_TYPE_PATH_HINT}
            </p>
          </>
        )}

        <ErrorNote error={unplaced} />
        <DialogActions
          submitLabel={busy ? 'Creating…' : 'Create'}
          onCancel={onClose}
          disabled={busy || live.typing !== undefined}
          why={live.typing ? 'Fix the field marked above first.' : undefined}
        />
      </form>
    </Dialog>
  );
}
