import type { ReactNode } from 'react';
import type { ApiError } from '../../../shared/errors.js';
import type { ExecutorDraft } from './executor-form.js';
import { errorAt, Field, TextField } from '../../components/Field.js';

type TextKey = {
  [K in keyof ExecutorDraft]: ExecutorDraft[K] extends string ? K : never;
}[keyof ExecutorDraft];

interface FieldsProps {
  draft: ExecutorDraft;
  error: ApiError | undefined;
  set: (changes: Partial<ExecutorDraft>) => void;
}

/** One text or number input bound to a draft key, with the API error for `executor.<path>`. */
function Input({
  label,
  hint,
  field,
  path,
  type = 'text',
  draft,
  error,
  set,
}: FieldsProps & {
  label: string;
  hint?: ReactNode;
  field: TextKey;
  path: string;
  type?: 'text' | 'number';
}): ReactNode {
  return (
    <TextField
      label={label}
      hint={hint}
      error={errorAt(error, `executor.${path}`)}
      type={type}
      value={draft[field]}
      onChange={(text) => set({ [field]: text })}
      spellCheck={false}
    />
  );
}

export function CommandFields(props: FieldsProps): ReactNode {
  const { draft, error, set } = props;
  return (
    <div className="executor-fields">
      <Input
        {...props}
        label="Command"
        field="command"
        path="command"
        hint="The program to run, e.g. /usr/local/bin/triage or claude."
      />
      <Field
        label="Arguments"
        hint="One argument per line, passed as given (no shell quoting)."
        error={errorAt(error, 'executor.args')}
      >
        {(control) => (
          <textarea
            {...control}
            rows={3}
            value={draft.args}
            onChange={(event) => set({ args: event.target.value })}
            spellCheck={false}
          />
        )}
      </Field>
      <Input
        {...props}
        label="Working directory"
        field="cwd"
        path="cwd"
        hint="Optional, an absolute path; blank runs in the run's own folder."
      />
      <div className="field-pair">
        <Input
          {...props}
          label="Timeout (seconds)"
          field="commandTimeout"
          path="timeoutSeconds"
          type="number"
          hint="Stopped after this long."
        />
        <Input
          {...props}
          label="Concurrency"
          field="commandConcurrency"
          path="concurrency"
          type="number"
          hint="Runs at the same time."
        />
      </div>
      <div className="check-row">
        <label>
          <input
            type="checkbox"
            checked={draft.shell}
            onChange={(event) => set({ shell: event.target.checked })}
          />{' '}
          Run through a shell
        </label>
        <p className="hint">
          Off: the command and its arguments go to the program exactly as written.
        </p>
      </div>
    </div>
  );
}

export function HttpFields(props: FieldsProps): ReactNode {
  return (
    <div className="executor-fields">
      <Input
        {...props}
        label="URL"
        field="url"
        path="url"
        hint="Each run is POSTed here with an Idempotency-Key; redirects are not followed."
      />
      <div className="field-pair">
        <Input
          {...props}
          label="Max attempts"
          field="maxAttempts"
          path="maxAttempts"
          type="number"
          hint="The first one included."
        />
        <Input
          {...props}
          label="Backoff (seconds)"
          field="backoffSeconds"
          path="backoffSeconds"
          type="number"
          hint="Doubles after each retry."
        />
        <Input
          {...props}
          label="Timeout per attempt (seconds)"
          field="httpTimeout"
          path="timeoutSeconds"
          type="number"
        />
        <Input
          {...props}
          label="Concurrency"
          field="httpConcurrency"
          path="concurrency"
          type="number"
          hint="Runs at the same time."
        />
      </div>
    </div>
  );
}
