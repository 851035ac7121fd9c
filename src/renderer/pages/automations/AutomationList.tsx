import type { KeyboardEvent, ReactNode } from 'react';
import { DELETED_WEBHOOK_WARNING, type Automation } from '../../../shared/contract/automations.js';
import { useRelay, useWriteBlock } from '../../app/relay-context.js';
import { navigate, routeHref } from '../../app/router.js';
import { onChanged, useCall } from '../../app/use-call.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { formatCount } from '../../components/format.js';
import { deletedWebhookNote, webhookLabels } from './webhook-names.js';

const open = (automation: Automation): void => navigate('automations', automation.id);

function onRowKey(event: KeyboardEvent, automation: Automation): void {
  if (event.key !== 'Enter' && event.key !== ' ') return;
  event.preventDefault();
  open(automation);
}

function WebhookNames({ automation }: { automation: Automation }): ReactNode {
  if (automation.webhooks.length === 0) return <span className="muted">none</span>;
  return (
    <ul className="inline-list">
      {automation.webhooks.map((w) => (
        <li key={w.uid}>
          {w.deleted ? <s className="deleted-name">{w.name ?? w.uid}</s> : w.name}
          {w.deleted && <span className="muted"> (deleted)</span>}
        </li>
      ))}
    </ul>
  );
}

function Badges({ automation }: { automation: Automation }): ReactNode {
  const others = automation.warnings.filter((w) => !w.startsWith(DELETED_WEBHOOK_WARNING));
  return (
    <>
      {automation.deletedWebhookUids.length > 0 && (
        <span
          className="badge badge-warning"
          title={[deletedWebhookNote(automation, webhookLabels([], automation.webhooks)), ...others]
            .filter((line) => line !== null)
            .join('\n')}
        >
          {DELETED_WEBHOOK_WARNING}
        </span>
      )}
      {others.map((w) => (
        <span key={w} className="badge badge-warning">
          {w}
        </span>
      ))}
    </>
  );
}

function Empty({ canAdd }: { canAdd: boolean }): ReactNode {
  return (
    <div className="empty automations-empty">
      <p>
        <strong>No automations yet.</strong>
      </p>
      <p>
        An automation turns webhook deliveries into runs. It selects one or more webhooks (
        <em>Webhook received from</em>) and, optionally, a payload filter; every Accepted delivery
        that matches starts a run with the automation&apos;s prompt and the delivery&apos;s body
        attached as <code>event-payload.json</code>.
      </p>
      {canAdd && (
        <p>
          <a href={routeHref('automations', 'new')}>Add your first automation</a>, then use{' '}
          <em>Test filter</em> to check it against a delivery you already received.
        </p>
      )}
    </div>
  );
}

/** Every automation of the factory, with its webhooks and how much it ran lately. */
export function AutomationList(): ReactNode {
  const { factory } = useRelay();
  const writeBlock = useWriteBlock(
    factory.managed
      ? `This factory is managed by definition files: add automations/<name>.md in ${factory.definitionsDir ?? 'its directory'}.`
      : null,
  );
  const list = useCall(
    'automations.list',
    {},
    (e) => e.type === 'run' || onChanged('automations', 'webhooks')(e),
  );
  const items = list.data?.items ?? [];
  return (
    <>
      <div className="page-header">
        <h1>Automations</h1>
        <span className="spacer" />
        <button
          type="button"
          className="primary"
          disabled={writeBlock !== null}
          title={writeBlock ?? undefined}
          onClick={() => navigate('automations', 'new')}
        >
          + New automation
        </button>
      </div>
      {writeBlock && <p className="warning-note">{writeBlock}</p>}
      <ErrorNote error={list.error} />
      {list.data === undefined && !list.error && <p className="loading">Loading automations…</p>}
      {list.data && items.length === 0 && <Empty canAdd={writeBlock === null} />}
      {items.length > 0 && (
        <table className="table automations-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Webhooks</th>
              <th scope="col">Enabled</th>
              <th scope="col">Runs in 24 h</th>
            </tr>
          </thead>
          <tbody>
            {items.map((automation) => (
              <tr
                key={automation.id}
                tabIndex={0}
                onClick={() => open(automation)}
                onKeyDown={(event) => onRowKey(event, automation)}
              >
                <td>
                  <span className="automation-name">{automation.name}</span>{' '}
                  <Badges automation={automation} />
                </td>
                <td>
                  <WebhookNames automation={automation} />
                </td>
                <td>{automation.enabled ? 'On' : 'Off'}</td>
                <td className="num">{formatCount(automation.runs24h)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
