import type { ReactNode } from 'react';
import { useClient } from '../../app/client-context.js';
import { useWriteBlock } from '../../app/relay-context.js';
import { routeHref } from '../../app/router.js';
import { CopyButton } from '../../components/CopyButton.js';
import { formatTime } from '../../components/format.js';
import { useToast } from '../../components/toasts.js';
import { EventTypeSetting } from './EventTypeSetting.js';
import { InlineEdit } from './InlineEdit.js';
import { checkWebhookField } from './webhook-field-check.js';
import { ProviderLink } from './ProviderLink.js';
import { schemeLabel } from './SignatureFields.js';
import type { Webhook } from './types.js';
import { MODE_NAMES } from './words.js';

/** The Settings tab of a webhook's page: what it is, how it is read, and its provider link. */
export function WebhookSettings({
  webhook,
  onChanged,
}: {
  webhook: Webhook;
  onChanged: () => void;
}): ReactNode {
  const client = useClient();
  const toast = useToast();
  const blocked = useWriteBlock();
  const update = async (changes: {
    deliveryIdHeader?: string | null;
    eventTypePath?: string | null;
  }) => {
    await client.call('webhooks.update', { uid: webhook.uid, ...changes });
    onChanged();
  };
  return (
    <>
      <dl className="fields">
        <dt>UID</dt>
        <dd>
          <code>{webhook.uid}</code>
          <CopyButton value={webhook.uid} label="Copy UID" />
        </dd>
        <dt>Mode</dt>
        <dd>
          {MODE_NAMES[webhook.authMode]} <code className="muted">{webhook.authMode}</code>
        </dd>
        {webhook.signatureScheme && (
          <>
            <dt>Scheme</dt>
            <dd>
              {schemeLabel(webhook.signatureScheme)}
              {webhook.signatureOptions && (
                <span className="muted">
                  header {webhook.signatureOptions.header}, {webhook.signatureOptions.encoding}
                  {webhook.signatureOptions.prefix && `, prefix ${webhook.signatureOptions.prefix}`}
                </span>
              )}
            </dd>
          </>
        )}
        <dt>Secret name</dt>
        <dd>
          <a href={routeHref('secrets')}>{webhook.secretName}</a>
        </dd>
        <dt>Delivery ID header</dt>
        <dd>
          <InlineEdit
            label="Delivery ID header"
            value={webhook.deliveryIdHeader ?? ''}
            check={checkWebhookField('deliveryIdHeader', 'The header name')}
            placeholder="X-Request-Id"
            hint="Blank: none. The identity then comes from the provider's header, X-Service-Delivery-Id, or the body's hash."
            blocked={blocked}
            display={
              webhook.deliveryIdHeader ? (
                <code>{webhook.deliveryIdHeader}</code>
              ) : (
                <span className="muted">none</span>
              )
            }
            onSave={async (header) => {
              await update({ deliveryIdHeader: header === '' ? null : header });
              toast(
                'success',
                header === ''
                  ? 'Delivery ID header removed.'
                  : `Delivery ID header set to ${header}.`,
              );
            }}
          />
        </dd>
        <dt>Event type</dt>
        <dd>
          <EventTypeSetting
            webhook={webhook}
            blocked={blocked}
            onSave={(eventTypePath) => update({ eventTypePath })}
          />
        </dd>
        <dt>Created</dt>
        <dd>
          <time dateTime={webhook.createdAt}>{formatTime(webhook.createdAt)}</time>
        </dd>
      </dl>
      <ProviderLink webhook={webhook} onChanged={onChanged} />
    </>
  );
}
