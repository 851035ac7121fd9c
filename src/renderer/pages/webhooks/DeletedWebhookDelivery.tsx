import type { ReactNode } from 'react';
import { routeHref } from '../../app/router.js';
import { useCall } from '../../app/use-call.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { formatBytes } from '../../components/format.js';
import { LabelBadge } from '../../components/LabelBadge.js';
import { EventTypeChip } from './EventTypeChip.js';
import { PayloadView } from './PayloadView.js';
import { RequestHeaders } from './RequestHeaders.js';
import { IDENTITY_SOURCE_NAMES } from './words.js';

/**
 * A stored delivery whose webhook is gone (a run's link to it, say): shown read-only, since
 * replaying, sending or testing it needs the webhook, but what arrived is still worth reading.
 */
export function DeletedWebhookDelivery({
  webhookUid,
  deliveryId,
}: {
  webhookUid: string;
  deliveryId: string;
}): ReactNode {
  const entry = useCall('deliveries.get', { id: deliveryId });
  const delivery = entry.data;
  return (
    <section className="pane delivery-detail deleted-webhook-delivery" aria-label="Delivery">
      <header className="detail-header">
        <h2>
          Delivery <code>{deliveryId}</code>
        </h2>
      </header>
      <p className="warning-note">
        Webhook <code>{webhookUid}</code> was deleted. Its delivery is kept and shown read-only:
        Replay, Send to and Test against an automation need the webhook.
      </p>
      <ErrorNote error={entry.error} />
      {!delivery && !entry.error && <p className="loading">Loading the delivery…</p>}
      {delivery && (
        <>
          <dl className="fields">
            <dt>Label</dt>
            <dd>
              <LabelBadge label={delivery.label} />
            </dd>
            <dt>Received</dt>
            <dd>
              <time dateTime={delivery.receivedAt}>
                {new Date(delivery.receivedAt).toLocaleString()}
              </time>
            </dd>
            {delivery.summary && (
              <>
                <dt>Summary</dt>
                <dd>{delivery.summary}</dd>
              </>
            )}
            <dt>Event type</dt>
            <dd>
              {delivery.eventType === null ? (
                <span className="muted">not known</span>
              ) : (
                <EventTypeChip eventType={delivery.eventType} />
              )}
            </dd>
            <dt>Size</dt>
            <dd>{formatBytes(delivery.size)}</dd>
            {delivery.reason && (
              <>
                <dt>Reason</dt>
                <dd>{delivery.reason}</dd>
              </>
            )}
            <dt>Identity</dt>
            <dd>
              {delivery.identity ? (
                <code>{delivery.identity}</code>
              ) : (
                <span className="muted">none</span>
              )}
              {delivery.identitySource && (
                <span className="muted">
                  {' '}
                  from {IDENTITY_SOURCE_NAMES[delivery.identitySource]}
                </span>
              )}
            </dd>
            <dt>Runs</dt>
            <dd className="run-links">
              {delivery.runIds.length === 0 ? (
                <span className="muted">none</span>
              ) : (
                delivery.runIds.map((runId) => (
                  <a key={runId} href={routeHref('runs', runId)}>
                    <code>{runId}</code>
                  </a>
                ))
              )}
            </dd>
          </dl>
          {delivery.payload !== null ? (
            <PayloadView payload={delivery.payload} request={delivery} />
          ) : (
            <RequestHeaders
              method={delivery.method}
              path={delivery.path}
              headers={delivery.headers}
            />
          )}
        </>
      )}
    </section>
  );
}
