import type { KeyboardEvent, ReactNode } from 'react';
import { navigate } from '../../app/router.js';
import type { Alarm } from '../../../shared/contract/alarms.js';
import type { MethodOutput } from '../../../shared/contract/index.js';
import { formatAgo } from '../../components/format.js';
import { Sparkline } from '../../components/Sparkline.js';
import { EnabledSwitch } from './EnabledSwitch.js';
import type { Webhook } from './types.js';
import { MODE_NAMES } from './words.js';

type Activity = MethodOutput<'deliveries.activity'>;

function select(uid: string): void {
  navigate('webhooks', uid);
}

/**
 * Name (its mode on a second line), enabled, last 24 h by label, last delivery; a row opens the
 * detail pane. Four columns that wrap rather than scroll: none is cut off in a narrow pane.
 */
export function WebhookList({
  webhooks,
  activity,
  alarms,
  selectedUid,
  now,
  onChanged,
}: {
  webhooks: Webhook[];
  activity: Activity | undefined;
  /** Alarms raised now, for a badge beside the webhook's name. */
  alarms: Alarm[];
  selectedUid: string | undefined;
  now: number;
  onChanged: () => void;
}): ReactNode {
  const byUid = new Map(activity?.items.map((item) => [item.uid, item]));
  const onKeyDown = (event: KeyboardEvent<HTMLTableRowElement>, uid: string): void => {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      select(uid);
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const row = event.currentTarget;
      const next = event.key === 'ArrowDown' ? row.nextElementSibling : row.previousElementSibling;
      if (next instanceof HTMLElement) next.focus();
    }
  };
  return (
    <section className="pane webhook-list" aria-label="Webhook list">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Name · mode</th>
            <th scope="col">Enabled</th>
            <th scope="col">Last 24 h</th>
            <th scope="col">Last delivery</th>
          </tr>
        </thead>
        <tbody>
          {webhooks.map((webhook) => {
            const item = byUid.get(webhook.uid);
            return (
              <tr
                key={webhook.uid}
                tabIndex={0}
                aria-selected={webhook.uid === selectedUid}
                onClick={() => select(webhook.uid)}
                onKeyDown={(event) => onKeyDown(event, webhook.uid)}
                className={webhook.enabled ? undefined : 'webhook-disabled'}
              >
                <td className="webhook-name">
                  <span>{webhook.name}</span>
                  {alarms
                    .filter((a) => a.webhookUid === webhook.uid)
                    .map((a) => (
                      <span
                        key={a.kind}
                        className="badge badge-warning webhook-alarm-badge"
                        title={a.message}
                      >
                        ⚠ {a.kind}
                      </span>
                    ))}
                  <span className="webhook-scheme" title={MODE_NAMES[webhook.authMode]}>
                    {webhook.authMode}
                    {webhook.signatureScheme && ` · ${webhook.signatureScheme}`}
                  </span>
                </td>
                <td>
                  <EnabledSwitch webhook={webhook} onChanged={onChanged} />
                </td>
                <td>
                  {item && activity ? (
                    <Sparkline hours={item.hours} since={activity.since} />
                  ) : (
                    <span className="muted">…</span>
                  )}
                </td>
                <td className="nowrap">
                  {item?.lastDeliveryAt ? (
                    <time dateTime={item.lastDeliveryAt} title={item.lastDeliveryAt}>
                      {formatAgo(item.lastDeliveryAt, now)}
                    </time>
                  ) : (
                    <span className="muted">never</span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
