import type { ReactNode } from 'react';
import { CopyButton } from '../../components/CopyButton.js';
import { OneTimeValue, type RevealedValue } from '../../components/OneTimeValue.js';
import { useRelay } from '../../app/relay-context.js';
import { sampleCommand } from './sample-command.js';
import { SetupChecklist } from './SetupChecklist.js';
import type { Webhook } from './types.js';

/** After Create: the ingress URL and the secret, once, with a line that sends a sample. */
export function CreatedPanel({
  webhook,
  ingressUrl,
  secret,
  warning,
}: {
  webhook: Webhook;
  ingressUrl: string;
  secret: string | null;
  warning?: string;
}): ReactNode {
  const values: RevealedValue[] = [{ label: 'Ingress URL', value: ingressUrl }];
  if (secret !== null) values.push({ label: 'Secret', value: secret });
  const command = sampleCommand(webhook, ingressUrl, secret, useRelay().status.cliCommand);
  const signed = webhook.authMode === 'signature';
  return (
    <OneTimeValue
      values={values}
      warning={
        warning ??
        (secret === null
          ? 'The secret is not shown: it is an existing team secret. Rotate it on the Secrets page if you need a new value.'
          : undefined)
      }
    >
      {webhook.authMode === 'url_token' && secret !== null && (
        <p className="hint">
          The URL ends with the secret: the URL itself is the credential. After this it shows as{' '}
          <code>{'{token}'}</code>.
        </p>
      )}
      <SetupChecklist webhook={webhook} ingressUrl={ingressUrl} secret={secret} />
      <div className="field-label">
        {signed ? 'Send a signed sample delivery' : 'Send a sample delivery'}
      </div>
      <div className="value sample-command">
        <code data-testid="sample-command">{command}</code>
        <CopyButton value={command} label="Copy sample command" />
      </div>
      {signed && (
        <p className="hint">
          Signed deliveries need the provider’s signature, so plain <code>curl</code> is refused
          with 401: <code>hookport send</code> signs the body as {webhook.signatureScheme} would.
        </p>
      )}
    </OneTimeValue>
  );
}
