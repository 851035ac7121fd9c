import type { ReactNode } from 'react';
import type { Attempt } from '../../../../shared/contract/forwarding.js';
import { useCall } from '../../../app/use-call.js';
import { CopyButton } from '../../../components/CopyButton.js';
import { ErrorNote } from '../../../components/ErrorNote.js';
import { formatTime } from '../../../components/format.js';
import { answerText, statusClass } from './attempt-words.js';

function Headers({ title, headers }: { title: string; headers: Attempt['headers'] }): ReactNode {
  if (headers.length === 0) return null;
  return (
    <>
      <h5>{title}</h5>
      <table className="table headers-table">
        <tbody>
          {headers.map(([name, value], index) => (
            <tr key={`${index}-${name}`}>
              <th scope="row">{name}</th>
              <td>
                <code>{value}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function AttemptItem({ attempt }: { attempt: Attempt }): ReactNode {
  return (
    <li className="attempt" data-attempt={attempt.id}>
      <details>
        <summary>
          <time dateTime={attempt.at}>{formatTime(attempt.at)}</time>
          <span className={statusClass(attempt.status)}>{answerText(attempt)}</span>
          <span className="attempt-ms">{attempt.durationMs} ms</span>
          <code className="attempt-url">{attempt.url}</code>
          {attempt.edited && <span className="badge badge-large">edited</span>}
          {attempt.signed && <span className="badge badge-duplicate">signed</span>}
          {attempt.forwarder && <span className="badge badge-duplicate">hookport forward</span>}
        </summary>
        <div className="attempt-body">
          {attempt.status === null ? (
            <p className="hint">
              The handler did not answer ({attempt.error}). Is it running at that address?
            </p>
          ) : (
            <>
              <h5>
                Answer body
                {attempt.bodyTruncated && <span className="muted"> (first 64 KB)</span>}
              </h5>
              {attempt.body === '' ? (
                <p className="muted">Empty.</p>
              ) : (
                <pre className="block attempt-answer">{attempt.body}</pre>
              )}
              <Headers title="Answer headers" headers={attempt.headers} />
            </>
          )}
          {attempt.sentBody !== null && (
            <>
              <h5 className="with-copy">
                Sent payload (edited){' '}
                <CopyButton value={attempt.sentBody} label="Copy sent payload" />
              </h5>
              <pre className="block">{attempt.sentBody}</pre>
            </>
          )}
          <Headers title="Sent headers" headers={attempt.requestHeaders} />
        </div>
      </details>
    </li>
  );
}

/** Every send of this delivery to a handler, newest first, live (the CLI's sends too). */
export function AttemptsTimeline({ deliveryId }: { deliveryId: string }): ReactNode {
  const attempts = useCall(
    'deliveries.attempts',
    { id: deliveryId },
    (event) => event.type === 'attempt' && event.attempt.deliveryId === deliveryId,
  );
  const items = attempts.data?.items ?? [];
  return (
    <section className="attempts" aria-label="Sent to handlers">
      <h4>Sent to handlers</h4>
      <ErrorNote error={attempts.error} />
      {attempts.data && items.length === 0 ? (
        <p className="muted">
          Not sent anywhere yet. Send to… your own handler, or run <code>hookport forward</code>.
        </p>
      ) : (
        <ol className="attempt-list" aria-label="Attempts, newest first">
          {items.map((attempt) => (
            <AttemptItem key={attempt.id} attempt={attempt} />
          ))}
        </ol>
      )}
    </section>
  );
}
