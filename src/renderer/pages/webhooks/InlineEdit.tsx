import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { toApiError } from '../../app/use-call.js';
import type { ApiError } from '../../../shared/errors.js';
import { FieldError } from './FieldError.js';

/**
 * One field edited in place: Save sends it, Escape or Cancel puts it back. The error stays
 * beside the field until the next try.
 */
export function InlineEdit({
  label,
  value,
  placeholder,
  hint,
  blocked,
  onSave,
  display,
  check,
}: {
  label: string;
  value: string;
  placeholder?: string;
  hint?: string;
  /** Why it cannot be edited (shown), or null. */
  blocked: string | null;
  onSave: (value: string) => Promise<void>;
  display: ReactNode;
  /** The contract's rule for this field, asked as the operator types. */
  check?: (value: string) => ApiError | undefined;
}): ReactNode {
  const id = useId();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(value);
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (editing) input.current?.focus();
  }, [editing]);
  const start = (): void => {
    setDraft(value);
    setError(undefined);
    setEditing(true);
  };
  const save = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    try {
      await onSave(draft.trim());
      setEditing(false);
    } catch (failure) {
      setError(toApiError(failure));
    } finally {
      setBusy(false);
    }
  };
  const typing = check?.(draft);
  const shown = typing ?? error;
  if (!editing) {
    return (
      <>
        {display}
        <button
          type="button"
          className="link"
          onClick={start}
          disabled={blocked !== null}
          title={blocked ?? undefined}
          aria-label={`Edit ${label.toLowerCase()}`}
        >
          Edit
        </button>
      </>
    );
  }
  return (
    <form className="inline-edit" onSubmit={(event) => void save(event)}>
      <input
        aria-label={label}
        value={draft}
        placeholder={placeholder}
        spellCheck={false}
        ref={input}
        aria-invalid={shown ? true : undefined}
        aria-describedby={`${id}-error ${id}-hint`}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            setEditing(false);
          }
        }}
      />
      <button
        type="submit"
        className="primary"
        disabled={busy || typing !== undefined}
        title={typing ? 'Fix the value first.' : undefined}
      >
        Save
      </button>
      <button type="button" onClick={() => setEditing(false)}>
        Cancel
      </button>
      <FieldError id={`${id}-error`} error={shown} />
      {hint && (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      )}
    </form>
  );
}
