import { useState, type ReactNode } from 'react';
import { RUN_STATUSES, type RunStatus } from '../../../shared/contract/runs.js';
import { routeHref } from '../../app/router.js';
import { onChanged, useCall } from '../../app/use-call.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { BulkRerun } from './BulkRerun.js';
import { RunDetail } from './RunDetail.js';
import { RunList } from './RunList.js';
import { useRunPages } from './use-run-pages.js';
import './runs.css';

function StatusFilter({
  status,
  onChange,
}: {
  status: RunStatus | undefined;
  onChange: (status: RunStatus | undefined) => void;
}): ReactNode {
  return (
    <div className="status-filter" role="group" aria-label="Filter by status">
      <button
        type="button"
        className="chip chip-all"
        aria-pressed={status === undefined}
        onClick={() => onChange(undefined)}
      >
        All
      </button>
      {RUN_STATUSES.map((s) => (
        <button
          key={s}
          type="button"
          className={`chip chip-${s}`}
          aria-pressed={status === s}
          onClick={() => onChange(s)}
        >
          {s}
        </button>
      ))}
    </div>
  );
}

function AutomationFilter({
  automations,
  value,
  onChange,
}: {
  automations: ReadonlyArray<{ id: string; name: string }>;
  value: string | undefined;
  onChange: (id: string | undefined) => void;
}): ReactNode {
  return (
    <select
      aria-label="Filter by automation"
      value={value ?? ''}
      onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value)}
    >
      <option value="">All automations</option>
      {automations.map((a) => (
        <option key={a.id} value={a.id}>
          {a.name}
        </option>
      ))}
    </select>
  );
}

function Empty({
  status,
  filtered,
}: {
  status: RunStatus | undefined;
  filtered: boolean;
}): ReactNode {
  if (status !== undefined) return <p className="empty">No {status} runs.</p>;
  if (filtered) return <p className="empty">No runs of this automation.</p>;
  return (
    <div className="empty runs-empty">
      <p>
        <strong>No runs yet.</strong>
      </p>
      <p>
        A run starts when an Accepted delivery matches an enabled automation: one of its triggers
        selects the delivery&apos;s webhook and its payload filter matches. Each run gets the
        automation&apos;s prompt and the delivery&apos;s body as <code>event-payload.json</code>.
      </p>
      <p>
        What a run does is set by the executor in <a href={routeHref('settings')}>Settings</a> (by
        default it only records the run). <a href={routeHref('automations')}>Go to Automations</a>{' '}
        to add or test one.
      </p>
    </div>
  );
}

/** `#/runs` and `#/runs/<id>`: every run, newest first, live; a run opens beside the list. */
export function RunsPage({ route }: { route: string[] }): ReactNode {
  const [selectedId] = route;
  const [status, setStatus] = useState<RunStatus>();
  const [automationId, setAutomationId] = useState<string>();
  const automations = useCall('automations.list', {}, onChanged('automations'));
  const automation = automations.data?.items.find((a) => a.id === automationId);
  const pages = useRunPages(status, automationId);
  const list = (
    <div className="runs-list">
      <ErrorNote error={pages.error} />
      {pages.items === undefined && !pages.error && <p className="loading">Loading runs…</p>}
      {pages.items?.length === 0 && <Empty status={status} filtered={automationId !== undefined} />}
      {pages.items !== undefined && pages.items.length > 0 && (
        <RunList runs={pages.items} selectedId={selectedId} />
      )}
      {pages.hasMore && (
        <div className="actions">
          <button type="button" disabled={pages.loadingMore} onClick={() => void pages.loadMore()}>
            {pages.loadingMore ? 'Loading…' : 'Load more'}
          </button>
        </div>
      )}
    </div>
  );
  return (
    <>
      <div className="page-header">
        <h1>Runs</h1>
        <StatusFilter status={status} onChange={setStatus} />
        <AutomationFilter
          automations={automations.data?.items ?? []}
          value={automationId}
          onChange={setAutomationId}
        />
        {(status === 'failed' || status === 'interrupted') && (
          <BulkRerun status={status} automation={automation} />
        )}
      </div>
      {selectedId === undefined ? (
        list
      ) : (
        <div className="split runs-split">
          {list}
          <RunDetail key={selectedId} id={selectedId} />
        </div>
      )}
    </>
  );
}
