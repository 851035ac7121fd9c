import { useState, type ReactNode } from 'react';
import type { RunDetail as RunDetailData } from '../../../shared/contract/runs.js';
import type { ApiError } from '../../../shared/errors.js';
import { useClient } from '../../app/client-context.js';
import { useWriteBlock } from '../../app/relay-context.js';
import { navigate, routeHref } from '../../app/router.js';
import { toApiError, useCall } from '../../app/use-call.js';
import { CopyButton } from '../../components/CopyButton.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { formatDuration, formatTime } from '../../components/format.js';
import { useToast } from '../../components/toasts.js';
import { RunOutput } from './RunOutput.js';

function TextBlock({
  title,
  text,
  empty,
}: {
  title: string;
  text: string | null;
  empty: string;
}): ReactNode {
  return (
    <section className="run-text" aria-label={title}>
      <div className="run-text-head">
        <h3>{title}</h3>
        {text !== null && text !== '' && <CopyButton value={text} label={`Copy ${title}`} />}
      </div>
      {text !== null && text !== '' ? (
        // Focusable: a long text scrolls in its box, and the keyboard must reach it too.
        <pre className="block" tabIndex={0}>
          {text}
        </pre>
      ) : (
        <p className="muted">{empty}</p>
      )}
    </section>
  );
}

function Fields({ run }: { run: RunDetailData }): ReactNode {
  return (
    <dl className="fields">
      <dt>Automation</dt>
      <dd>
        {run.automationName === null ? (
          <span className="muted">deleted automation</span>
        ) : (
          <a href={routeHref('automations', run.automationId)}>{run.automationName}</a>
        )}
      </dd>
      <dt>Webhook</dt>
      <dd>
        {run.webhookName ?? <span className="muted">deleted webhook</span>}{' '}
        <code className="muted">{run.webhookUid}</code>
      </dd>
      {run.eventType !== null && (
        <>
          <dt>Event</dt>
          <dd>
            <code>{run.eventType}</code>
          </dd>
        </>
      )}
      <dt>Delivery</dt>
      <dd>
        <a href={routeHref('webhooks', run.webhookUid, run.deliveryId)}>
          <code>{run.deliveryId}</code>
        </a>
      </dd>
      <dt>Queued</dt>
      <dd>{formatTime(run.createdAt)}</dd>
      <dt>Started</dt>
      <dd>{run.startedAt ? formatTime(run.startedAt) : '—'}</dd>
      <dt>Finished</dt>
      <dd>{run.finishedAt ? formatTime(run.finishedAt) : '—'}</dd>
      <dt>Duration</dt>
      <dd>{formatDuration(run.startedAt, run.finishedAt)}</dd>
      {run.reruns.length > 0 && (
        <>
          <dt>Re-run as</dt>
          <dd className="run-links">
            {run.reruns.map((rerun) => (
              <a key={rerun} href={routeHref('runs', rerun)}>
                <code>{rerun}</code>
              </a>
            ))}
          </dd>
        </>
      )}
      {run.rerunOf !== null && (
        <>
          <dt>Re-run of</dt>
          <dd>
            <a href={routeHref('runs', run.rerunOf)}>
              <code>{run.rerunOf}</code>
            </a>
          </dd>
        </>
      )}
    </dl>
  );
}

/** How the run ended, in one line at the top: status, exit code or HTTP status, the error. */
function Outcome({ run }: { run: RunDetailData }): ReactNode {
  if (run.exitCode === null && run.httpStatus === null && run.error === null) return null;
  return (
    <dl className="fields run-outcome" aria-label="Outcome">
      {run.exitCode !== null && (
        <>
          <dt>Exit code</dt>
          <dd>
            <code data-testid="run-exit-code">{run.exitCode}</code>
          </dd>
        </>
      )}
      {run.httpStatus !== null && (
        <>
          <dt>HTTP status</dt>
          <dd>
            <code data-testid="run-http-status">{run.httpStatus}</code>
          </dd>
        </>
      )}
      {run.error !== null && (
        <>
          <dt>Error</dt>
          <dd className="run-error">{run.error}</dd>
        </>
      )}
    </dl>
  );
}

/**
 * One run, what matters first: how it ended and the output's last lines (why it failed), then
 * Re-run, then where it came from and what it was given (PROMPT.md, event-payload.json).
 */
export function RunDetail({ id }: { id: string }): ReactNode {
  const client = useClient();
  const toast = useToast();
  const writeBlock = useWriteBlock();
  const [busy, setBusy] = useState(false);
  const [rerunError, setRerunError] = useState<ApiError>();
  // A running command's output streams in: each run-output event re-reads what it printed.
  const run = useCall(
    'runs.get',
    { id },
    (e) => (e.type === 'run' && e.run.id === id) || (e.type === 'run-output' && e.runId === id),
  );
  const rerun = async (): Promise<void> => {
    setBusy(true);
    setRerunError(undefined);
    try {
      const created = await client.call('runs.rerun', { id });
      toast('success', `Re-run queued as ${created.id}.`);
      navigate('runs', created.id);
    } catch (failure) {
      setRerunError(toApiError(failure));
    } finally {
      setBusy(false);
    }
  };

  if (run.error) {
    return (
      <section className="pane run-detail" aria-label="Run">
        <ErrorNote error={run.error} />
        <a href={routeHref('runs')}>Back to all runs</a>
      </section>
    );
  }
  const data = run.data;
  if (!data) return <p className="loading pane">Loading run…</p>;
  // Re-run is offered once per run: a run already re-run links to its re-run instead.
  const canRerun =
    (data.status === 'failed' || data.status === 'interrupted') && data.reruns.length === 0;
  return (
    <section className="pane run-detail" aria-label={`Run ${data.id}`}>
      <header className="run-detail-head">
        <h2>
          Run <code>{data.id}</code>
        </h2>
        <span className={`chip chip-${data.status}`}>{data.status}</span>
        <span className="spacer" />
        <a href={routeHref('runs')} aria-label="Close run">
          Close
        </a>
      </header>
      <Outcome run={data} />
      <RunOutput run={data} />
      {canRerun && (
        <div className="actions">
          <button
            type="button"
            className="primary"
            disabled={busy || writeBlock !== null}
            title={writeBlock ?? undefined}
            onClick={() => void rerun()}
          >
            Re-run
          </button>
          <span className="hint">
            {writeBlock ?? 'A new run with the same input; this one stays as it is.'}
          </span>
        </div>
      )}
      {data.reruns.length > 0 && (
        <p className="hint">
          Already re-run as{' '}
          <a href={routeHref('runs', data.reruns.at(-1)!)}>
            <code>{data.reruns.at(-1)}</code>
          </a>
          : if that one fails too, re-run it from there.
        </p>
      )}
      <ErrorNote error={rerunError} />
      <h3 className="run-about">Run</h3>
      <Fields run={data} />
      <TextBlock title="Input (PROMPT.md)" text={data.input} empty="No input recorded." />
      <TextBlock
        title="event-payload.json"
        text={data.payload}
        empty="The delivery was pruned: its payload is no longer stored."
      />
    </section>
  );
}
