import { useState, type ReactNode } from 'react';
import type { RefusalCounts } from '../../../shared/contract/refusals.js';
import { routeHref } from '../../app/router.js';
import { onChanged, useCall } from '../../app/use-call.js';
import { useInterval } from '../../app/use-interval.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { formatCount } from '../../components/format.js';
import { RefusalTable } from './RefusalTable.js';
import './refused.css';

const STATUSES = [404, 405, 429] as const;
/** Refusals send no live events: the page reads again this often. */
export const REFUSALS_REFRESH_MS = 5_000;

const countsText = (counts: RefusalCounts): string =>
  STATUSES.map((status) => `${formatCount(counts[status])} × ${status}`).join(', ');

/**
 * Refused requests: the newest 404, 405 and 429 answers, which the delivery log does not keep
 * (a typo'd or disabled URL, a wrong method, a sender over its rate). Relay-wide, or for one
 * webhook (`#/refused/<uid>`).
 */
export function RefusedPage({ route }: { route: string[] }): ReactNode {
  const [webhookUid] = route;
  const [status, setStatus] = useState<(typeof STATUSES)[number] | null>(null);
  const refusals = useCall('refusals.list', {
    limit: 1000,
    ...(webhookUid ? { webhook: webhookUid } : {}),
  });
  useInterval(refusals.reload, REFUSALS_REFRESH_MS);
  const webhooks = useCall('webhooks.list', {}, onChanged('webhooks'));
  const names = new Map(webhooks.data?.items.map((w) => [w.uid, w.name]));
  const data = refusals.data;
  const items = data?.items.filter((r) => status === null || r.status === status) ?? [];
  const name = webhookUid ? (names.get(webhookUid) ?? webhookUid) : null;

  return (
    <div className="refused-page">
      <header className="page-header">
        <h1>Refused requests{name ? `: ${name}` : ''}</h1>
      </header>
      <p className="muted">
        Requests answered 404 (unknown, disabled or deleted webhook; a URL that is not a webhook),
        405 (a method other than POST) or 429 (over the rate limit or the failed-authentication
        budget). They are not deliveries, so the log does not keep them; the relay keeps the newest{' '}
        {formatCount(data?.kept ?? 1000)} in memory. URL tokens show as <code>{'{token}'}</code>.
        {name && (
          <>
            {' '}
            <a href={routeHref('refused')}>Show every webhook’s</a>.
          </>
        )}
      </p>
      {data && (
        <p className="refusal-counts">
          Last hour: {countsText(data.lastHour)}. Since the relay started: {countsText(data.counts)}
          .
        </p>
      )}
      <div className="status-filter" role="group" aria-label="Filter by status">
        <button
          type="button"
          className="chip"
          aria-pressed={status === null}
          onClick={() => setStatus(null)}
        >
          All
        </button>
        {STATUSES.map((s) => (
          <button
            key={s}
            type="button"
            className={`chip refusal-${s}`}
            aria-pressed={status === s}
            onClick={() => setStatus(s)}
          >
            {s}
          </button>
        ))}
      </div>
      <ErrorNote error={refusals.error} />
      {!data && !refusals.error && <p className="loading">Loading refused requests…</p>}
      {data && items.length === 0 && (
        <p className="empty">
          {status === null
            ? 'No refused requests kept. Senders that reach a webhook get a delivery in its log instead.'
            : `No ${status} answers kept.`}
        </p>
      )}
      {items.length > 0 && (
        <section className="pane refusals-pane" aria-label="Refused requests, newest first">
          <RefusalTable items={items} webhookNames={names} showWebhook={!webhookUid} />
        </section>
      )}
    </div>
  );
}
