import { useState, type ReactNode } from 'react';
import type { RunDetail } from '../../../shared/contract/runs.js';
import { CopyButton } from '../../components/CopyButton.js';

/** Lines shown before "Show all": enough for a stack trace's end or a program's last words. */
export const TAIL_LINES = 12;

/**
 * What the run said, at the top of its page: the last lines first (a failed command's stderr,
 * `error: CRM unreachable`, is where it ends), the rest a click away.
 */
export function RunOutput({ run }: { run: RunDetail }): ReactNode {
  const [all, setAll] = useState(false);
  const title = run.status === 'running' ? 'Output (live)' : 'Output';
  const text = run.output ?? '';
  const lines = text.replace(/\n+$/, '').split('\n');
  const hidden = all ? 0 : Math.max(0, lines.length - TAIL_LINES);
  return (
    <section className="run-text run-output" aria-label={title}>
      <div className="run-text-head">
        <h3>
          {title}
          {hidden > 0 && <span className="muted"> · last {TAIL_LINES} lines</span>}
        </h3>
        {text !== '' && <CopyButton value={text} label={`Copy ${title}`} />}
      </div>
      {text === '' ? (
        <p className="muted">
          {run.status === 'queued' || run.status === 'running'
            ? 'No output yet.'
            : 'No output was captured.'}
        </p>
      ) : (
        <>
          {hidden > 0 && (
            <button type="button" className="link" onClick={() => setAll(true)}>
              Show all {lines.length} lines
            </button>
          )}
          <pre className="block" data-testid="run-output" tabIndex={0}>
            {hidden > 0 ? lines.slice(hidden).join('\n') : text}
          </pre>
        </>
      )}
    </section>
  );
}
