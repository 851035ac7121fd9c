import { useId, useState, type ReactNode } from 'react';
import { useClient } from '../../app/client-context.js';
import { useCall } from '../../app/use-call.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { DoneDialog } from '../../components/DoneDialog.js';
import { useToast } from '../../components/toasts.js';
import type { MethodOutput } from '../../../shared/contract/index.js';
import { CreatedPanel } from './CreatedPanel.js';
import type { Webhook } from './types.js';
import { rotateSecretHint } from './signing-secret-words.js';

/** Rotate secret: confirm (naming who breaks), then the new value, once. */
export function RotateSecretDialog({
  webhook,
  onClose,
}: {
  webhook: Webhook;
  onClose: () => void;
}): ReactNode {
  const id = useId();
  const client = useClient();
  const toast = useToast();
  const secrets = useCall('secrets.list', { factory: webhook.factory });
  const [value, setValue] = useState('');
  const [result, setResult] = useState<MethodOutput<'webhooks.rotate'>>();
  const signed = webhook.authMode === 'signature';
  const others = (secrets.data?.items.find((s) => s.name === webhook.secretName)?.usedBy ?? [])
    .filter((user) => user.uid !== webhook.uid)
    .map((user) => user.name);

  if (result) {
    return (
      <DoneDialog title={`New secret for ${webhook.name}`} onClose={onClose} wide>
        <CreatedPanel webhook={webhook} ingressUrl={result.ingressUrl} secret={result.secret} />
      </DoneDialog>
    );
  }

  const rotate = async (): Promise<void> => {
    const rotated = await client.call('webhooks.rotate', {
      uid: webhook.uid,
      ...(signed && value !== '' ? { secret: value } : {}),
    });
    toast('success', `The secret of ${webhook.name} was rotated: the old one no longer works.`);
    setResult(rotated);
  };

  return (
    <ConfirmDialog
      title="Rotate secret"
      confirmLabel="Rotate secret"
      destructive
      onConfirm={rotate}
      onClose={onClose}
    >
      <p>
        The current secret of <strong>{webhook.name}</strong> stops working at once, with no
        overlap: senders still using it get 401 (Rejected (auth)) until they use the new one.
        {webhook.authMode === 'url_token' && ' The ingress URL changes with it.'}
      </p>
      {others.length > 0 && (
        <p className="warning-note">
          The team secret {webhook.secretName} is also used by {others.join(', ')}: they switch to
          the new value too.
        </p>
      )}
      {signed && (
        <div className="form">
          <label htmlFor={`${id}-secret`}>The provider’s new signing secret</label>
          <input
            id={`${id}-secret`}
            ref={(input) => input?.setAttribute('autofocus', '')}
            value={value}
            autoComplete="off"
            spellCheck={false}
            aria-describedby={`${id}-hint`}
            onChange={(event) => setValue(event.target.value)}
          />
          <p id={`${id}-hint`} className="hint">
            {rotateSecretHint(webhook.signatureScheme)}
          </p>
        </div>
      )}
    </ConfirmDialog>
  );
}
