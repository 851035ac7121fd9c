import type { ReactNode } from 'react';
import { routeHref } from '../../app/router.js';
import { useCall } from '../../app/use-call.js';
import { useInterval } from '../../app/use-interval.js';
import { formatCount } from '../../components/format.js';
import { RefusalTable } from '../refused/RefusalTable.js';
import { REFUSALS_REFRESH_MS } from '../refused/RefusedPage.js';
import '../refused/refused.css';

const SHOWN = 5;

/**
 * Requests this webhook's URL refused without a log entry (disabled: 404; over its rate: 429;
 * GET: 405): the newest few and a link to all of them, or that there are none.
 */
export function WebhookRefusals({ uid }: { uid: string }): ReactNode {
  const refusals = useCall('refusals.list', { webhook: uid, limit: 1000 });
  useInterval(refusals.reload, REFUSALS_REFRESH_MS);
  const items = refusals.data?.items ?? [];
  if (items.length === 0) {
    return (
      <section className="webhook-refusals" aria-label="Refused requests">
        <h3>Refused requests</h3>
        <p className="hint">
          {refusals.data
            ? 'None kept: this webhook’s URL has not answered 404, 405 or 429 lately.'
            : 'Loading…'}
        </p>
      </section>
    );
  }
  return (
    <section className="webhook-refusals" aria-label="Refused requests">
      <h3>Refused requests</h3>
      <p className="hint">
        {formatCount(items.length)} kept for this webhook: requests its URL answered with 404, 405
        or 429, which the delivery log does not keep.{' '}
        <a href={routeHref('refused', uid)}>
          {items.length > SHOWN ? `All ${formatCount(items.length)}` : 'Refused requests page'}
        </a>
      </p>
      <RefusalTable items={items.slice(0, SHOWN)} webhookNames={new Map()} showWebhook={false} />
    </section>
  );
}
