import { useState, type ReactNode } from 'react';
import { useClient } from '../../app/client-context.js';
import { useRelay, useWriteBlock } from '../../app/relay-context.js';
import { navigate, routeHref } from '../../app/router.js';
import { CopyButton } from '../../components/CopyButton.js';
import { formatTime } from '../../components/format.js';
import { useToast } from '../../components/toasts.js';
import { DeleteWebhookDialog } from './DeleteWebhookDialog.js';
import { EnabledSwitch } from './EnabledSwitch.js';
import { EventTypeSetting } from './EventTypeSetting.js';
import { InlineEdit } from './InlineEdit.js';
import { checkWebhookField } from './webhook-field-check.js';
import { ProviderLink } from './ProviderLink.js';
import { RecentDeliveries } from './RecentDeliveries.js';
import { RotateSecretDialog } from './RotateSecretDialog.js';
import { WebhookAlarms } from './WebhookAlarms.js';
import { WebhookRefusals } from './WebhookRefusals.js';
import { WebhookVolume } from './WebhookVolume.js';
import { SCHEME_NAMES } from './SignatureFields.js';
import type { Webhook } from './types.js';
import { MODE_NAMES } from './words.js';

/** The selected webhook: its settings and actions, then its Recent deliveries. */
export function WebhookDetail({
  webhook,
  deliveryId,
  detailId,
  onChanged,
}: {
  webhook: Webhook;
  deliveryId: string | undefined;
  /** The opened delivery's panel (beside this pane), which the log's rows control. */
  detailId: string;
  onChanged: () => void;
}): ReactNode {
  const client = useClient();
  const toast = useToast();
  const { factory } = useRelay();
  const [dialog, setDialog] = useState<'rotate' | 'delete' | null>(null);
  const blocked = useWriteBlock();
  const renameBlocked = useWriteBlock(
    factory.managed ? 'Webhooks of a managed factory cannot be renamed: rename the file.' : null,
  );
  const rotateBlocked = useWriteBlock(
    factory.managed
      ? `Defined in a file: rotate the team secret ${webhook.secretName} instead.`
      : null,
  );

  const update = async (changes: {
    name?: string;
    deliveryIdHeader?: string | null;
    eventTypePath?: string | null;
  }) => {
    await client.call('webhooks.update', { uid: webhook.uid, ...changes });
    onChanged();
  };

  return (
    <section className="pane webhook-detail" aria-label={`Webhook ${webhook.name}`}>
      <header className="detail-header">
        <div className="detail-title">
          <InlineEdit
            label="Name"
            value={webhook.name}
            check={checkWebhookField('name', 'The name')}
            blocked={renameBlocked}
            hint="Automations select webhooks by UID, so renaming changes nothing for them."
            display={<h2>{webhook.name}</h2>}
            onSave={async (name) => {
              await update({ name });
              toast('success', `Renamed to ${name}.`);
            }}
          />
        </div>
        <span className="spacer" />
        <EnabledSwitch webhook={webhook} onChanged={onChanged} showText={false} />
        <span aria-hidden="true">{webhook.enabled ? 'Enabled' : 'Disabled'}</span>
      </header>
      {!webhook.enabled && (
        <p className="warning-note">Disabled: senders get 404 until you enable it again.</p>
      )}
      <WebhookAlarms uid={webhook.uid} />
      <dl className="fields">
        <dt>UID</dt>
        <dd>
          <code>{webhook.uid}</code>
          <CopyButton value={webhook.uid} label="Copy UID" />
        </dd>
        <dt>Ingress URL</dt>
        <dd>
          <code data-testid="ingress-url">{webhook.ingressUrl}</code>
          <CopyButton value={webhook.ingressUrl} label="Copy ingress URL" />
        </dd>
        {webhook.authMode === 'url_token' && (
          <>
            <dt />
            <dd className="hint">
              {'{token}'} stands for the URL token, shown once when it was created or rotated.
            </dd>
          </>
        )}
        <dt>Mode</dt>
        <dd>
          {MODE_NAMES[webhook.authMode]} <code className="muted">{webhook.authMode}</code>
        </dd>
        {webhook.signatureScheme && (
          <>
            <dt>Scheme</dt>
            <dd>
              {SCHEME_NAMES[webhook.signatureScheme]}
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
      <div className="actions">
        <button
          type="button"
          onClick={() => setDialog('rotate')}
          disabled={rotateBlocked !== null}
          title={rotateBlocked ?? undefined}
        >
          Rotate secret
        </button>
        <button
          type="button"
          className="danger"
          onClick={() => setDialog('delete')}
          disabled={blocked !== null}
          title={blocked ?? undefined}
        >
          Delete
        </button>
      </div>
      {rotateBlocked && (
        <p className="hint">
          {factory.managed ? (
            <>
              Rotate secret: this webhook is defined in a file, so rotate the team secret{' '}
              <a href={routeHref('secrets')}>{webhook.secretName}</a> instead; it picks up the new
              value on the next sync.
            </>
          ) : (
            rotateBlocked
          )}
        </p>
      )}
      <ProviderLink webhook={webhook} onChanged={onChanged} />
      <WebhookVolume uid={webhook.uid} />
      <WebhookRefusals uid={webhook.uid} />
      <RecentDeliveries webhook={webhook} deliveryId={deliveryId} detailId={detailId} />
      {dialog === 'rotate' && (
        <RotateSecretDialog webhook={webhook} onClose={() => setDialog(null)} />
      )}
      {dialog === 'delete' && (
        <DeleteWebhookDialog
          webhook={webhook}
          managed={factory.managed}
          onClose={() => setDialog(null)}
          onDeleted={() => {
            setDialog(null);
            onChanged();
            navigate('webhooks');
          }}
        />
      )}
    </section>
  );
}
