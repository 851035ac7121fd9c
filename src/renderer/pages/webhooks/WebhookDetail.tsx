import { useState, type ReactNode } from 'react';
import { useClient } from '../../app/client-context.js';
import { useRelay, useWriteBlock } from '../../app/relay-context.js';
import { navigate, routeHref } from '../../app/router.js';
import { CopyButton } from '../../components/CopyButton.js';
import { useToast } from '../../components/toasts.js';
import { DeleteWebhookDialog } from './DeleteWebhookDialog.js';
import { EnabledSwitch } from './EnabledSwitch.js';
import { InlineEdit } from './InlineEdit.js';
import { checkWebhookField } from './webhook-field-check.js';
import { RecentDeliveries } from './RecentDeliveries.js';
import { RotateSecretDialog } from './RotateSecretDialog.js';
import { WebhookAlarms } from './WebhookAlarms.js';
import { WebhookRefusals } from './WebhookRefusals.js';
import { WebhookSettings } from './WebhookSettings.js';
import { WebhookTabs, type WebhookTab } from './WebhookTabs.js';
import { WebhookVolume } from './WebhookVolume.js';
import type { Webhook } from './types.js';
import { MODE_NAMES } from './words.js';

/**
 * A webhook's page: a header (name, state, ingress URL, actions), then tabs, Recent deliveries
 * first: the log is what the page is for; settings, volume and refusals are a click away.
 */
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

  const [tab, setTab] = useState<WebhookTab>('Deliveries');
  // A link to a delivery (from a run, say) opens on the log, whatever tab was open.
  const shown: WebhookTab = deliveryId ? 'Deliveries' : tab;
  const rename = async (name: string) => {
    await client.call('webhooks.update', { uid: webhook.uid, name });
    onChanged();
  };

  return (
    <section className="pane webhook-detail" aria-label={`Webhook ${webhook.name}`}>
      <header className="detail-header">
        <a className="back-to-list" href={routeHref('webhooks')}>
          <span aria-hidden="true">← </span>All webhooks
        </a>
        <div className="detail-title">
          <InlineEdit
            label="Name"
            value={webhook.name}
            check={checkWebhookField('name', 'The name')}
            blocked={renameBlocked}
            hint="Automations select webhooks by UID, so renaming changes nothing for them."
            display={<h2>{webhook.name}</h2>}
            onSave={async (name) => {
              await rename(name);
              toast('success', `Renamed to ${name}.`);
            }}
          />
        </div>
        <span className="spacer" />
        <EnabledSwitch webhook={webhook} onChanged={onChanged} showText={false} />
        <span aria-hidden="true">{webhook.enabled ? 'Enabled' : 'Disabled'}</span>
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
      </header>
      {!webhook.enabled && (
        <p className="warning-note">Disabled: senders get 404 until you enable it again.</p>
      )}
      <div className="webhook-ingress">
        <span className="muted">{MODE_NAMES[webhook.authMode]}</span>
        <code data-testid="ingress-url">{webhook.ingressUrl}</code>
        <CopyButton value={webhook.ingressUrl} label="Copy ingress URL" />
        {webhook.authMode === 'url_token' && (
          <span className="hint">
            {'{token}'} stands for the URL token, shown once when it was created or rotated.
          </span>
        )}
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
      <WebhookAlarms uid={webhook.uid} />
      <WebhookTabs
        tab={shown}
        onTab={(next) => {
          setTab(next);
          if (deliveryId && next !== 'Deliveries') navigate('webhooks', webhook.uid);
        }}
      >
        {shown === 'Deliveries' && (
          <RecentDeliveries webhook={webhook} deliveryId={deliveryId} detailId={detailId} />
        )}
        {shown === 'Settings' && <WebhookSettings webhook={webhook} onChanged={onChanged} />}
        {shown === 'Volume' && <WebhookVolume uid={webhook.uid} />}
        {shown === 'Refused' && <WebhookRefusals uid={webhook.uid} />}
      </WebhookTabs>
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
