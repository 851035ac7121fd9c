import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useClient } from './client-context.js';
import { isLost, reportAnswered, reportLost, reportResumed, useConnection } from './connection.js';
import { toApiError } from './use-call.js';
import './connection-banner.css';

/** Asked again sooner at first (a restart is quick), then no more than every few seconds. */
const RETRY_MS = [500, 1_000, 2_000, 3_000, 5_000];

const clock = (at: number): string =>
  new Date(at).toLocaleTimeString(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });

/**
 * When the relay stops answering: a banner over the page as it last was (nothing is cleared),
 * asking again by itself until the relay is back; then every read is made again.
 */
export function ConnectionBanner(): ReactNode {
  const client = useClient();
  const { lost } = useConnection();
  // How many times this loss was asked about (a new loss starts again from the quick retries).
  const [asked, setAsked] = useState({ since: 0, tries: 0 });
  const since = lost?.since ?? null;
  const tries = asked.since === since ? asked.tries : 0;

  const probe = useCallback(async (): Promise<void> => {
    try {
      await client.call('relay.status', {});
      reportAnswered();
    } catch (failure) {
      const error = toApiError(failure);
      if (isLost(error)) reportLost(error);
      else reportAnswered();
    }
  }, [client]);

  // The event stream dropping is the first sign: ask at once rather than at the next read.
  // Its coming back means events were missed while it was away: every read is made again.
  useEffect(() => {
    let dropped = false;
    return client.watchStream?.((open) => {
      if (!open) {
        dropped = true;
        void probe();
      } else if (dropped) {
        dropped = false;
        reportResumed();
      }
    });
  }, [client, probe]);

  useEffect(() => {
    if (since === null) return;
    const timer = setTimeout(
      () => {
        void probe().finally(() => setAsked({ since, tries: tries + 1 }));
      },
      RETRY_MS[Math.min(tries, RETRY_MS.length - 1)],
    );
    return () => clearTimeout(timer);
  }, [since, tries, probe]);

  if (!lost) return null;
  return (
    <div className="connection-banner" role="status" aria-live="polite">
      <strong>The relay is not answering</strong>
      <span>
        since {clock(lost.since)}; what you see is as it was then. Reconnecting by itself…
      </span>
      <span className="muted">{lost.error.message}</span>
      <button type="button" onClick={() => void probe()}>
        Try now
      </button>
    </div>
  );
}
