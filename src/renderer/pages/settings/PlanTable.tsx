import type { ReactNode } from 'react';
import type { PlanItem } from '../../../shared/contract/factories.js';
import type { MethodOutput } from '../../../shared/contract/index.js';

export type SyncResult = MethodOutput<'factories.sync'>;

const ACTIONS: PlanItem['action'][] = ['create', 'update', 'delete', 'unchanged'];

/** "2 create, 0 update, 1 delete, 3 unchanged", as `hookport apply` says it. */
export function planSummary(items: PlanItem[]): string {
  return ACTIONS.map(
    (action) => `${items.filter((i) => i.action === action).length} ${action}`,
  ).join(', ');
}

function Note({ item }: { item: PlanItem }): ReactNode {
  const parts = [
    ...(item.note ? [item.note] : []),
    ...(item.changes.length > 0 ? [`changes: ${item.changes.join(', ')}`] : []),
  ];
  return parts.length === 0 ? null : <>{parts.join('; ')}</>;
}

/** One row per definition: what an apply does (or did) with it. */
export function PlanTable({
  items,
  compact = false,
}: {
  items: PlanItem[];
  /** In a confirm dialog: no file or id columns. */
  compact?: boolean;
}): ReactNode {
  if (items.length === 0)
    return <p className="empty">No webhooks or automations, in the files or here.</p>;
  return (
    <div className="plan-scroll">
      <table className="table plan-table">
        <thead>
          <tr>
            <th scope="col">Action</th>
            <th scope="col">Kind</th>
            <th scope="col">Name</th>
            {!compact && <th scope="col">File</th>}
            {!compact && <th scope="col">ID</th>}
            <th scope="col">Note</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={`${item.kind}/${item.name}/${item.action}`}>
              <td>
                <span className={`plan-action plan-${item.action}`}>{item.action}</span>
              </td>
              <td>{item.kind}</td>
              <td className="mono">{item.name}</td>
              {!compact && <td className="mono">{item.file ?? '—'}</td>}
              {!compact && <td className="mono">{item.id ?? '—'}</td>}
              <td>
                <Note item={item} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Automations that stop firing because a webhook they select is deleted (seed §3), by name. */
export function PlanWarnings({ warnings }: { warnings: readonly string[] }): ReactNode {
  if (warnings.length === 0) return null;
  return (
    <ul className="plan-warnings" aria-label="Warnings">
      {warnings.map((warning) => (
        <li key={warning} className="warning-note">
          {warning}
        </li>
      ))}
    </ul>
  );
}

/** A plan or an apply's outcome: the summary line, the table, the files left alone. */
export function SyncOutcome({ result }: { result: SyncResult }): ReactNode {
  return (
    <div className="sync-outcome">
      <p>
        <strong>{result.applied ? 'Applied' : 'Plan only, nothing changed'}:</strong>{' '}
        <code>{result.definitionsDir}</code>: {planSummary(result.items)}.
      </p>
      <PlanTable items={result.items} />
      <PlanWarnings warnings={result.warnings} />
      {result.ignored.length > 0 && (
        <p className="hint">Ignored (not definitions): {result.ignored.join(', ')}</p>
      )}
    </div>
  );
}
