import type { ReactNode } from 'react';
import { CopyButton } from '../../components/CopyButton.js';
import { OneTimeValue, type RevealedValue } from '../../components/OneTimeValue.js';
import type { Webhook } from './types.js';

const SAMPLE_BODY = `'{"hello":"world"}'`;
const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** How a sender reaches this webhook, as one line to paste into a terminal. */
export function sampleCommand(webhook: Webhook, ingressUrl: string, secret: string | null): string {
  // With an existing team secret the value is not shown: the line reads it from the shell.
  const secretArg = secret === null ? '"$WEBHOOK_SECRET"' : quote(secret);
  const auth =
    secret === null
      ? '"Authorization: Bearer $WEBHOOK_SECRET"'
      : quote(`Authorization: Bearer ${secret}`);
  const curl = `curl -i -X POST ${quote(ingressUrl)} -H ${quote('Content-Type: application/json')}`;
  switch (webhook.authMode) {
    case 'token':
      return `${curl} -H ${auth} -d ${SAMPLE_BODY}`;
    case 'url_token':
      return `${curl} -d ${SAMPLE_BODY}`;
    case 'signature':
      return `echo ${SAMPLE_BODY} > event.json && hookport send ${quote(ingressUrl)} --body event.json --scheme ${webhook.signatureScheme ?? ''} --secret ${secretArg}`;
  }
}

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
  const command = sampleCommand(webhook, ingressUrl, secret);
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
