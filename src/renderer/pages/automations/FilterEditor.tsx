import { useId, useRef, type ReactNode } from 'react';
import type { FilterCheck, FilterKind } from './filter-text.js';

const MIN_ROWS = 4;
const MAX_ROWS = 18;

const PLACEHOLDERS: Record<FilterKind, string> = {
  payload: '{"action": ["opened", "reopened"]}',
  headers: '{"X-GitHub-Event": ["pull_request"]}',
};

function Hint({ kind }: { kind: FilterKind }): ReactNode {
  if (kind === 'headers') {
    return (
      <>
        The same grammar on the request headers, by name (any case): a header sent twice is the list
        of its values. Values are text. Credential headers are stored as [redacted] and cannot be
        filtered on. Empty: no header filter.
      </>
    );
  }
  return (
    <>
      A JSON object shaped like the delivery body: every key must match. A list means one of these
      values; <code>in</code>, <code>not_in</code> and <code>exists</code> are operators. Empty:
      every delivery from the selected webhooks starts a run.
    </>
  );
}

/**
 * A payload or header filter as a JSON textarea that validates as you type. A backdrop with the
 * same text, transparent, sits behind it so the bad key can be underlined in place.
 */
export function FilterEditor({
  label,
  kind,
  value,
  check,
  readOnly,
  onChange,
}: {
  label: string;
  kind: FilterKind;
  value: string;
  check: FilterCheck;
  readOnly: boolean;
  onChange: (value: string) => void;
}): ReactNode {
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const backdrop = useRef<HTMLDivElement>(null);
  const range = check.ok ? null : check.range;
  const rows = Math.min(MAX_ROWS, Math.max(MIN_ROWS, value.split('\n').length + 1));
  return (
    <div className="filter-field">
      <label htmlFor={inputId}>{label}</label>
      <div className="filter-editor">
        <div className="filter-backdrop" aria-hidden="true" ref={backdrop}>
          {range ? (
            <>
              {value.slice(0, range.start)}
              <mark>{value.slice(range.start, range.end) || ' '}</mark>
              {value.slice(range.end)}
            </>
          ) : (
            value
          )}
          {'\n'}
        </div>
        <textarea
          id={inputId}
          className="filter-input"
          value={value}
          rows={rows}
          spellCheck={false}
          autoComplete="off"
          readOnly={readOnly}
          placeholder={PLACEHOLDERS[kind]}
          aria-invalid={!check.ok}
          aria-describedby={check.ok ? hintId : `${errorId} ${hintId}`}
          onChange={(event) => onChange(event.target.value)}
          onScroll={(event) => {
            if (backdrop.current) backdrop.current.scrollTop = event.currentTarget.scrollTop;
          }}
        />
      </div>
      <p id={errorId} className="error-note filter-error" aria-live="polite">
        {check.ok ? '' : check.message}
      </p>
      {check.ok && check.warnings && (
        <p className="warning-note filter-warning" aria-live="polite">
          {check.warnings.join(' · ')}
        </p>
      )}
      <p id={hintId} className="hint">
        <Hint kind={kind} />
      </p>
    </div>
  );
}
