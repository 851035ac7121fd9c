import { useId, useMemo, useState, type ReactNode } from 'react';
import { FILTER_MATCHES_DEFAULT, type FilterMatch } from '../../../shared/contract/filter-lab.js';
import type { WebhookTrigger } from '../../../shared/contract/triggers.js';
import { AGGREGATE_RELOAD_MS, useCall } from '../../app/use-call.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { formatCount } from '../../components/format.js';
import { LabRows } from './LabRows.js';
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
  // While a key leaves the filter half-typed (invalid), the last result stays, marked stale,
  // rather than the table going and coming back on every other key.
  const [lastKey, setLastKey] = useState(key);
  if (key !== null && key !== lastKey) setLastKey(key);
  const settled = useDebounced(lastKey, SETTLE_MS);
  const uids =
    (settled === null ? null : (JSON.parse(settled) as WebhookTrigger))?.filter.webhook_ids ?? [];
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
  const data = lab.data;
  const items = useMemo(
    () =>
      (data?.items ?? []).filter(
        (item: FilterMatch) =>
          shown === 'all' || (shown === 'match') === (item.verdict === 'Would trigger'),
      ),
    [data, shown],
  );
  if (lastKey === null) return null;
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
          <LabRows items={items} picked={picked} onOpen={onOpen} />
        </div>
      )}
    </section>
  );
}
