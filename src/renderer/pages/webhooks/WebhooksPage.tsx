import { useEffect, useId, useState, type ReactNode } from 'react';
import { useRelay, useWriteBlock } from '../../app/relay-context.js';
import { navigate } from '../../app/router.js';
import { AGGREGATE_RELOAD_MS, onChanged, useCall } from '../../app/use-call.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { AddWebhookDialog } from './AddWebhookDialog.js';
import { DeletedWebhookDelivery } from './DeletedWebhookDelivery.js';
import { DeliveryPanel } from './DeliveryPanel.js';
import { WebhookDetail } from './WebhookDetail.js';
import { WebhookList } from './WebhookList.js';
import './webhooks.css';

/** "2 min ago" must age while the page stays open. */
function useNow(intervalMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

function EmptyState({ onAdd, blocked }: { onAdd: () => void; blocked: string | null }): ReactNode {
  return (
    <div className="empty webhooks-empty">
      <p>
        <strong>No webhooks yet.</strong>
      </p>
      <p>
        Add a webhook to get an ingress URL and a secret. Any system that can POST JSON (GitHub,
        Stripe, a cron job, <code>curl</code>) can then send deliveries to it, and they show up here
        as they arrive. Point an automation&apos;s “Webhook received from” at it to start runs.
      </p>
      <button type="button" className="primary" onClick={onAdd} disabled={blocked !== null}>
        Add webhook
      </button>
      {blocked && <p className="hint">{blocked}</p>}
    </div>
  );
}

/** Webhooks: the list, the selected webhook's detail pane, and its Recent deliveries. */
export function WebhooksPage({ route }: { route: string[] }): ReactNode {
  const [selectedUid, deliveryId] = route;
  const { factory, reload: reloadRelay } = useRelay();
  const webhooks = useCall('webhooks.list', {}, onChanged('webhooks'));
  const activity = useCall(
    'deliveries.activity',
    {},
    (event) => event.type === 'delivery' || onChanged('webhooks')(event),
    AGGREGATE_RELOAD_MS,
  );
  const alarms = useCall('alarms.list', {}, onChanged('alarms', 'webhooks'));
  const [adding, setAdding] = useState(false);
  const detailId = useId();
  const now = useNow();
  const left = factory.webhookLimit - factory.webhookCount;
  const atLimit = left <= 0;
  const blocked = useWriteBlock(
    atLimit
      ? `This factory has ${factory.webhookLimit} webhooks, the most it may have: delete one to add another.`
      : null,
  );
  const reload = (): void => {
    webhooks.reload();
    activity.reload();
    reloadRelay();
  };
  const items = webhooks.data?.items;
  const selected = items?.find((w) => w.uid === selectedUid);

  return (
    <div className="webhooks-page">
      <header className="page-header">
        <h1>Webhooks</h1>
        <span className="spacer" />
        {blocked && <span className="hint webhooks-blocked">{blocked}</span>}
        <button
          type="button"
          className="primary"
          onClick={() => setAdding(true)}
          disabled={blocked !== null}
          title={blocked ?? undefined}
        >
          <span aria-hidden="true">+ </span>Add webhook
        </button>
        <span
          className={atLimit ? 'webhook-count at-limit' : 'webhook-count'}
          aria-label={`${factory.webhookCount} of ${factory.webhookLimit} webhooks`}
          title={`${factory.webhookCount} of at most ${factory.webhookLimit} webhooks`}
        >
          {factory.webhookCount}/{factory.webhookLimit}
        </span>
        {left > 0 && left <= 2 && <span className="hint">{left} left</span>}
      </header>
      {factory.managed && (
        <p className="hint">
          This factory is managed by the definition files in <code>{factory.definitionsDir}</code>:
          changes here are written to <code>webhooks/&lt;name&gt;.yaml</code>.
        </p>
      )}
      <ErrorNote error={webhooks.error} />
      {!items ? (
        !webhooks.error && <p className="loading">Loading webhooks…</p>
      ) : items.length === 0 && !deliveryId ? (
        <EmptyState onAdd={() => setAdding(true)} blocked={blocked} />
      ) : (
        <div
          className={[
            'split webhooks-split',
            selected ? 'has-selection' : '',
            selected && deliveryId ? 'delivery-open' : '',
          ].join(' ')}
        >
          <WebhookList
            webhooks={items}
            activity={activity.data}
            alarms={alarms.data?.items ?? []}
            selectedUid={selectedUid}
            now={now}
            onChanged={reload}
          />
          {selected ? (
            <WebhookDetail
              key={selected.uid}
              webhook={selected}
              deliveryId={deliveryId}
              detailId={detailId}
              onChanged={reload}
            />
          ) : selectedUid && deliveryId ? (
            <DeletedWebhookDelivery webhookUid={selectedUid} deliveryId={deliveryId} />
          ) : (
            <section className="pane webhook-detail-empty" aria-label="Webhook details">
              {selectedUid ? (
                <p className="warning-note">
                  There is no webhook {selectedUid} (it may have been deleted). Pick one from the
                  list.
                </p>
              ) : (
                <p className="muted">
                  Select a webhook to see its ingress URL, settings and Recent deliveries.
                </p>
              )}
            </section>
          )}
          {selected && deliveryId && (
            <DeliveryPanel
              id={detailId}
              deliveryId={deliveryId}
              webhook={selected}
              onClose={() => navigate('webhooks', selected.uid)}
            />
          )}
        </div>
      )}
      {adding && (
        <AddWebhookDialog
          onClose={() => setAdding(false)}
          onCreated={reload}
          onDone={(uid) => {
            setAdding(false);
            navigate('webhooks', uid);
          }}
        />
      )}
    </div>
  );
}
