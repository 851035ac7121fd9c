import { useEffect, useId, useRef, type ReactNode } from 'react';
import type { ApiError } from '../../../shared/errors.js';
import type { Draft } from './draft.js';

/** Name, prompt and enabled; a server error naming one of them is shown under it. */
export function EditorFields({
  draft,
  readOnly,
  error,
  typing,
  onChange,
}: {
  draft: Draft;
  readOnly: boolean;
  error: ApiError | undefined;
  /** What is wrong with what is being typed, checked by the contract's rule as it changes. */
  typing?: ApiError | undefined;
  onChange: (changes: Partial<Draft>) => void;
}): ReactNode {
  const nameId = useId();
  const nameHintId = useId();
  const promptId = useId();
  const promptHintId = useId();
  const enabledId = useId();
  const errorFor = (field: string): string | undefined =>
    typing?.path === field ? typing.message : error?.path === field ? error.message : undefined;
  const nameError = errorFor('name');
  const promptError = errorFor('prompt');
  const nameInput = useRef<HTMLInputElement>(null);
  const promptInput = useRef<HTMLTextAreaElement>(null);
  // A refused save takes the keyboard to the field to fix, as the browser's own check did.
  useEffect(() => {
    if (error?.path === 'name') nameInput.current?.focus();
    else if (error?.path === 'prompt') promptInput.current?.focus();
  }, [error]);
  return (
    <>
      <label htmlFor={nameId}>Name</label>
      <input
        id={nameId}
        ref={nameInput}
        value={draft.name}
        readOnly={readOnly}
        required
        autoComplete="off"
        aria-invalid={nameError !== undefined}
        aria-describedby={nameHintId}
        onChange={(event) => onChange({ name: event.target.value })}
      />
      <p id={nameHintId} className={nameError ? 'error-note' : 'hint'}>
        {nameError ??
          'Letters, digits, ".", "_" or "-"; it becomes automations/<name>.md in a definition directory.'}
      </p>
      <label htmlFor={promptId}>Prompt</label>
      <textarea
        id={promptId}
        ref={promptInput}
        className="prompt-input"
        value={draft.prompt}
        readOnly={readOnly}
        required
        rows={8}
        aria-invalid={promptError !== undefined}
        aria-describedby={promptHintId}
        onChange={(event) => onChange({ prompt: event.target.value })}
      />
      <p id={promptHintId} className={promptError ? 'error-note' : 'hint'}>
        {promptError ??
          'What the run should do. Each run gets this prompt, then an envelope naming the webhook, the delivery and its event type, with the body attached as event-payload.json.'}
      </p>
      <div className="switch">
        <input
          id={enabledId}
          type="checkbox"
          checked={draft.enabled}
          disabled={readOnly}
          onChange={(event) => onChange({ enabled: event.target.checked })}
        />
        <label htmlFor={enabledId}>Enabled</label>
        <span className="hint">A disabled automation starts no runs.</span>
      </div>
    </>
  );
}
