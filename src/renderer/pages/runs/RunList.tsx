import { Fragment, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import type { Run } from '../../../shared/contract/runs.js';
import { navigate, routeHref } from '../../app/router.js';
import { formatDuration, formatTime } from '../../components/format.js';

/** dlv_01J…K7Q4ZP: enough to tell deliveries apart in a dense row; the link holds the whole ID. */
const shortId = (id: string): string => (id.length > 16 ? `${id.slice(0, 7)}…${id.slice(-6)}` : id);

function onRowKey(event: KeyboardEvent, run: Run): void {
  if (event.target !== event.currentTarget) return;
  if (event.key !== 'Enter' && event.key !== ' ') return;
  event.preventDefault();
  navigate('runs', run.id);
}

/** How the run's program or URL answered: `exit 3`, `HTTP 502`; empty for record runs. */
export function resultText(run: Pick<Run, 'exitCode' | 'httpStatus'>): string {
  if (run.exitCode !== null) return `exit ${run.exitCode}`;
  if (run.httpStatus !== null) return `HTTP ${run.httpStatus}`;
  return '';
}

// The delivery link goes to the inspector; it should not also open the run.
const stop = (event: MouseEvent): void => event.stopPropagation();

/**
 * Runs newest first; a row opens the run in the detail pane. Nothing is cut off however narrow
 * the list is: the webhook shares the automation's cell, names and event types wrap, and where
 * the list is narrow (a run open beside it, a small window) the Delivery column goes first, then
 * Started (runs.css, by the list's own width); the run's page has both.
 */
export function RunList({
  runs,
  selectedId,
}: {
  runs: readonly Run[];
  selectedId: string | undefined;
}): ReactNode {
  return (
    <table className="table runs-table">
      <thead>
        <tr>
          <th scope="col">Status</th>
          <th scope="col">Automation · webhook</th>
          <th scope="col">Event</th>
          <th scope="col" className="col-delivery">
            Delivery
          </th>
          <th scope="col" className="col-started">
            Started
          </th>
          <th scope="col" className="num col-duration">
            Duration
          </th>
        </tr>
      </thead>
      <tbody>
        {runs.map((run) => (
          <tr
            key={run.id}
            tabIndex={0}
            aria-selected={run.id === selectedId}
            onClick={() => navigate('runs', run.id)}
            onKeyDown={(event) => onRowKey(event, run)}
          >
            <td>
              <span className={`chip chip-${run.status}`}>{run.status}</span>
              {resultText(run) !== '' && <span className="run-result">{resultText(run)}</span>}
              {run.rerunOf !== null && (
                <span className="rerun-mark" title={`Re-run of ${run.rerunOf}`}>
                  re-run
                </span>
              )}
              {run.reruns.length > 0 && (
                <span className="reran-mark" title={`Re-run as ${run.reruns.join(', ')}`}>
                  re-run as {run.reruns.length === 1 ? 'a new run' : `${run.reruns.length} runs`}
                </span>
              )}
            </td>
            <td className="wrap">
              {run.automationName ?? <span className="muted">deleted automation</span>}
              <span className="run-webhook">
                {run.webhookName ?? <code>{run.webhookUid}</code>}
              </span>
            </td>
            <td className="wrap run-event">
              {run.eventType === null ? (
                <span className="muted">—</span>
              ) : (
                <code title={`Event type: ${run.eventType}`}>
                  {/* A narrow column breaks it after a dot (pull_request. / opened), not mid-word. */}
                  {run.eventType.split(/(?<=\.)/).map((part, i) => (
                    <Fragment key={i}>
                      {i > 0 && <wbr />}
                      {part}
                    </Fragment>
                  ))}
                </code>
              )}
            </td>
            <td className="col-delivery">
              <a
                href={routeHref('webhooks', run.webhookUid, run.deliveryId)}
                title={run.deliveryId}
                // The name starts with what is shown, then says it all (WCAG 2.5.3).
                aria-label={`${shortId(run.deliveryId)}: Delivery ${run.deliveryId}`}
                onClick={stop}
              >
                <code>{shortId(run.deliveryId)}</code>
              </a>
            </td>
            <td className="col-started" title={run.startedAt ?? undefined}>
              {run.startedAt ? formatTime(run.startedAt) : '—'}
            </td>
            <td className="num col-duration">{formatDuration(run.startedAt, run.finishedAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
