import type { ReactNode } from 'react';
import type { Refusal } from '../../../shared/contract/refusals.js';
import { routeHref } from '../../app/router.js';
import { formatTime } from '../../components/format.js';

const STATUS_TEXT = { 404: 'Not found', 405: 'Method not allowed', 429: 'Too many' } as const;

/** Refused requests, newest first: when, what was answered, the path asked for, why, and by whom. */
export function RefusalTable({
  items,
  webhookNames,
  showWebhook,
}: {
  items: Refusal[];
  webhookNames: ReadonlyMap<string, string>;
  showWebhook: boolean;
}): ReactNode {
  return (
    <table className="table refusal-table">
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">Status</th>
          <th scope="col">Request</th>
          <th scope="col">Reason</th>
          <th scope="col">Client</th>
          {showWebhook && <th scope="col">Webhook</th>}
        </tr>
      </thead>
      <tbody>
        {items.map((refusal, index) => (
          <tr key={`${refusal.at}:${index}`}>
            <td className="nowrap">
              <time dateTime={refusal.at} title={refusal.at}>
                {formatTime(refusal.at)}
              </time>
            </td>
            <td className="nowrap">
              <span
                className={`chip refusal-${refusal.status}`}
                title={STATUS_TEXT[refusal.status]}
              >
                {refusal.status}
              </span>
            </td>
            <td className="refusal-path">
              <code>
                {refusal.method} {refusal.path}
              </code>
            </td>
            <td>{refusal.reason}</td>
            <td className="nowrap">
              <code>{refusal.client}</code>
            </td>
            {showWebhook && (
              <td className="nowrap">
                {refusal.webhookUid ? (
                  <a href={routeHref('webhooks', refusal.webhookUid)}>
                    {webhookNames.get(refusal.webhookUid) ?? refusal.webhookUid}
                  </a>
                ) : (
                  <span className="muted">unknown</span>
                )}
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
