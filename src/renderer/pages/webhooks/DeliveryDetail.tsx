import { useState, type ReactNode } from 'react';
import { useClient } from '../../app/client-context.js';
import { useWriteBlock } from '../../app/relay-context.js';
import { routeHref } from '../../app/router.js';
import { toApiError, useCall } from '../../app/use-call.js';
import { CopyButton } from '../../components/CopyButton.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { formatBytes, formatCount, isOverBodyLimit } from '../../components/format.js';
import { LabelBadge } from '../../components/LabelBadge.js';
import { useToast } from '../../components/toasts.js';
import { MAX_BODY_BYTES } from '../../../shared/limits.js';
import { CopyAsCurl } from './CopyAsCurl.js';
import { EventTypeChip } from './EventTypeChip.js';
import { ForwardPanel } from './forward/ForwardPanel.js';
import { PayloadView } from './PayloadView.js';
import { RequestHeaders } from './RequestHeaders.js';
import { TestAgainstAutomation } from './TestAgainstAutomation.js';
import type { DeliveryEntry, Webhook } from './types.js';
import { IDENTITY_SOURCE_NAMES, plural } from './words.js';

function DeliveryLink({ webhook, id }: { webhook: Webhook; id: string }): ReactNode {
  return (
    <a href={routeHref('webhooks', webhook.uid, id)}>
      <code>{id}</code>
    </a>
  );
}

function Metadata({ entry, webhook }: { entry: DeliveryEntry; webhook: Webhook }): ReactNode {
  return (
    <dl className="fields">
      <dt>Label</dt>
      <dd>
        <LabelBadge label={entry.label} />
      </dd>
      <dt>Received</dt>
      <dd>
        <time dateTime={entry.receivedAt}>{new Date(entry.receivedAt).toLocaleString()}</time>
      </dd>
      <dt>Event type</dt>
      <dd>
        {entry.eventType === null ? (
          <span className="muted">not known</span>
        ) : (
          <EventTypeChip eventType={entry.eventType} />
        )}
      </dd>
      <dt>Request</dt>
      <dd>
        {entry.method === null ? (
          <span className="muted">not recorded</span>
        ) : (
          <code className="request-target">
            {entry.method} {entry.path}
          </code>
        )}
      </dd>
      <dt>Size</dt>
      <dd>
        <span title={`${formatCount(entry.size)} bytes`}>{formatBytes(entry.size)}</span>
        {isOverBodyLimit(entry.size) && (
          <span className="over-limit"> (over the {formatCount(MAX_BODY_BYTES)}-byte limit)</span>
        )}
      </dd>
      {entry.reason && (
        <>
          <dt>Reason</dt>
          <dd>{entry.reason}</dd>
        </>
      )}
      {entry.duplicateOf && (
        <>
          <dt>Duplicate of</dt>
          <dd>
            <DeliveryLink webhook={webhook} id={entry.duplicateOf} />
          </dd>
        </>
      )}
      {entry.replayOf && (
        <>
          <dt>Replay of</dt>
          <dd>
            <DeliveryLink webhook={webhook} id={entry.replayOf} />
          </dd>
        </>
      )}
      <dt>Identity</dt>
      <dd className="identity">
        {entry.identity ? (
          <>
            <code>{entry.identity}</code>
            <CopyButton value={entry.identity} label="Copy identity" />
          </>
        ) : (
          <span className="muted">none</span>
        )}
        {entry.identitySource && (
          <span className="muted">from {IDENTITY_SOURCE_NAMES[entry.identitySource]}</span>
        )}
      </dd>
      <dt>Client address</dt>
      <dd>{entry.clientAddress ?? <span className="muted">not recorded</span>}</dd>
      {entry.label === 'Accepted' && (
        <>
          <dt>Runs</dt>
          <dd className="run-links">
            {entry.runIds.length === 0 ? (
              <span className="muted">none: no automation matched it</span>
            ) : (
              entry.runIds.map((runId) => (
                <a key={runId} href={routeHref('runs', runId)}>
                  <code>{runId}</code>
                </a>
              ))
            )}
          </dd>
        </>
      )}
    </dl>
  );
}

/** An expanded log entry: its metadata, and for an accepted one the payload and what to do. */
export function DeliveryDetail({
  id,
  deliveryId,
  webhook,
  onClose,
}: {
  id: string;
  deliveryId: string;
  webhook: Webhook;
  onClose: () => void;
}): ReactNode {
  const client = useClient();
  const toast = useToast();
  const blocked = useWriteBlock();
  const entry = useCall('deliveries.get', { id: deliveryId });
  const [replaying, setReplaying] = useState(false);
  const replay = async (): Promise<void> => {
    setReplaying(true);
    try {
      const result = await client.call('deliveries.replay', { id: deliveryId });
      toast(
        'success',
        result.runs.length > 0
          ? `Replayed as ${result.delivery_id}: ${plural(result.runs.length, 'run')} queued (${result.runs.join(', ')}).`
          : `Replayed as ${result.delivery_id}: no automation matches it today, so no run was queued.`,
      );
    } catch (error) {
      toast('error', `Replay failed: ${toApiError(error).message}`);
    } finally {
      setReplaying(false);
    }
  };

  const data = entry.data;
  return (
    <section id={id} className="delivery-detail" aria-label={`Delivery ${deliveryId}`}>
      <header className="delivery-detail-header">
        <h4>
          <code>{deliveryId}</code>
        </h4>
        <CopyButton value={deliveryId} label="Copy delivery ID" />
        <span className="spacer" />
        <button type="button" className="link" onClick={onClose}>
          Close
        </button>
      </header>
      <ErrorNote error={entry.error} />
      {!data ? (
        !entry.error && <p className="loading">Loading the delivery…</p>
      ) : data.webhookUid !== webhook.uid ? (
        <p className="warning-note">This delivery belongs to another webhook.</p>
      ) : (
        <>
          <Metadata entry={data} webhook={webhook} />
          {data.label === 'Accepted' && data.payload !== null ? (
            <>
              <div className="actions">
                <button
                  type="button"
                  onClick={() => void replay()}
                  disabled={replaying || blocked !== null}
                  title={blocked ?? 'Run it through today’s automations again, as a new delivery'}
                >
                  Replay
                </button>
                <CopyAsCurl entry={data} webhook={webhook} />
              </div>
              <ForwardPanel deliveryId={deliveryId} webhook={webhook} payload={data.payload} />
              <h4>Payload</h4>
              <PayloadView payload={data.payload} request={data} />
              <h4>Test against an automation</h4>
              <TestAgainstAutomation webhook={webhook} deliveryId={deliveryId} />
            </>
          ) : data.label === 'Accepted' ? (
            <p className="hint no-payload">Its payload is no longer stored.</p>
          ) : (
            <>
              <div className="actions">
                <CopyAsCurl entry={data} webhook={webhook} />
              </div>
              <h4>Request headers</h4>
              <RequestHeaders method={data.method} path={data.path} headers={data.headers} />
              <p className="hint no-payload">
                No payload is stored for {data.label === 'Duplicate' ? 'duplicate' : 'rejected'}{' '}
                deliveries: the relay keeps their metadata only.
                {data.duplicateOf && (
                  <>
                    {' '}
                    Open the original, <DeliveryLink webhook={webhook} id={data.duplicateOf} />, to
                    read the payload.
                  </>
                )}
              </p>
            </>
          )}
        </>
      )}
    </section>
  );
}
