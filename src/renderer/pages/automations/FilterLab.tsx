import { useId, useState, type ReactNode } from 'react';
import { FILTER_MATCHES_DEFAULT, type FilterMatch } from '../../../shared/contract/filter-lab.js';
import type { WebhookTrigger } from '../../../shared/contract/triggers.js';
import { AGGREGATE_RELOAD_MS, useCall } from '../../app/use-call.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { formatCount, formatTime } from '../../components/format.js';
import { useDebounced } from './use-debounced.js';

const SETTLE_MS = 400;
type Shown = 'all' | 'match' | 'miss';

/**
 * The filter lab: how many of the newest stored deliveries of the selected webhooks this
 * trigger (as edited) would start a run for, with the list; any row opens in Test filter.
 */
export function FilterLab({
  trigger,
  picked,
  onOpen,
}: {
  /** The delivery Test filter shows now: its row is marked. */
  picked: string;
  /** Null while the trigger cannot be tested (no webhook, or a filter that does not validate). */
  trigger: WebhookTrigger | null;
  onOpen: (deliveryId: string) => void;
}): ReactNode {
  const headingId = useId();
  const [shown, setShown] = useState<Shown>('all');
  const key = trigger === null ? null : JSON.stringify(trigger);
  const settled = useDebounced(key, SETTLE_MS);
  const uids = trigger?.filter.webhook_ids ?? [];
  const lab = useCall(
    'automations.filterMatches',
    settled === null
      ? null
      : { trigger: JSON.parse(settled) as WebhookTrigger, limit: FILTER_MATCHES_DEFAULT },
    (event) =>
      event.type === 'delivery' &&
      event.delivery.label === 'Accepted' &&
      uids.includes(event.delivery.webhookUid),
    AGGREGATE_RELOAD_MS,
  );
  if (trigger === null) return null;
  const data = lab.data;
  const items = (data?.items ?? []).filter(
    (item: FilterMatch) =>
      shown === 'all' || (shown === 'match') === (item.verdict === 'Would trigger'),
  );
  const stale = key !== settled || lab.loading;
  return (
    <section className="filter-lab" aria-labelledby={headingId}>
      <h3 id={headingId}>
        {data
          ? `Matches ${formatCount(data.matched)} of the last ${formatCount(data.scanned)} ${data.scanned === 1 ? 'delivery' : 'deliveries'}`
          : 'Counting matches…'}
      </h3>
      <ErrorNote error={lab.error} />
      {data && data.scanned === 0 && (
        <p className="muted">The selected webhooks have no stored Accepted delivery yet.</p>
      )}
      {data && data.scanned > 0 && (
        <div className={stale ? 'stale' : undefined} aria-busy={stale}>
          <div className="lab-filter" role="group" aria-label="Show">
            {(['all', 'match', 'miss'] as const).map((value) => (
              <button
                key={value}
                type="button"
                className="chip"
                aria-pressed={shown === value}
                onClick={() => setShown(value)}
              >
                {value === 'all'
                  ? 'All'
                  : value === 'match'
                    ? `Would trigger (${formatCount(data.matched)})`
                    : `Would not (${formatCount(data.scanned - data.matched)})`}
              </button>
            ))}
          </div>
          <div className="lab-scroll">
            <table className="table lab-table">
              <thead>
                <tr>
                  <th scope="col">Verdict</th>
                  <th scope="col">Event type</th>
                  <th scope="col">Received</th>
                  <th scope="col">Delivery</th>
                </tr>
              </thead>
              <tbody>
                {items.map((item) => (
                  <tr
                    key={item.deliveryId}
                    title={item.detail ?? undefined}
                    aria-current={item.deliveryId === picked ? 'true' : undefined}
                  >
                    <td>
                      <span className={item.verdict === 'Would trigger' ? 'lab-yes' : 'lab-no'}>
                        {item.verdict === 'Would trigger' ? '✓ Would trigger' : '✗ Would not'}
                      </span>
                    </td>
                    <td>{item.eventType ?? <span className="muted">—</span>}</td>
                    <td>{formatTime(item.receivedAt)}</td>
                    <td>
                      <button
                        type="button"
                        className="link"
                        aria-label={`${item.deliveryId.slice(-8)}: open ${item.deliveryId} in Test filter`}
                        onClick={() => onOpen(item.deliveryId)}
                      >
                        <code>{item.deliveryId.slice(-8)}</code>
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </section>
  );
}
