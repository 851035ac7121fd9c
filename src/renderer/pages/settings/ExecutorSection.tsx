import { useState, type ReactNode } from 'react';
import { EXECUTOR_KINDS, type ExecutorConfig } from '../../../shared/contract/executors.js';
import { useClient } from '../../app/client-context.js';
import { useFormAction } from '../../app/use-action.js';
import { onChanged, useCall } from '../../app/use-call.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { useToast } from '../../components/toasts.js';
import { draftOf, executorOf, KIND_TEXT, type ExecutorDraft } from './executor-form.js';
import { CommandFields, HttpFields } from './ExecutorFields.js';
import { SaveRow } from './SaveRow.js';
import { checkExecutor } from './settings-check.js';
import { errorAt } from '../../components/Field.js';

const FIELD_PATHS = [
  'command',
  'args',
  'cwd',
  'timeoutSeconds',
  'concurrency',
  'url',
  'maxAttempts',
  'backoffSeconds',
];

function ExecutorForm({
  executor,
  writeBlock,
}: {
  executor: ExecutorConfig;
  writeBlock: string | null;
}): ReactNode {
  const client = useClient();
  const toast = useToast();
  const [draft, setDraft] = useState<ExecutorDraft>(() => draftOf(executor));
  const set = (changes: Partial<ExecutorDraft>): void => setDraft((d) => ({ ...d, ...changes }));

  const live = checkExecutor(draft);
  const {
    onSubmit,
    busy,
    error: refused,
  } = useFormAction(async () => {
    if (live.submit) throw live.submit;
    const saved = await client.call('factories.update', {
      id: 'default',
      executor: executorOf(draft),
    });
    toast('success', `Run executor saved: ${KIND_TEXT[saved.executor.kind].label}.`);
  }, draft);
  const error = refused ?? live.typing;
  const shownAtField = FIELD_PATHS.some((p) => errorAt(error, `executor.${p}`) !== undefined);

  return (
    <form className="form settings-form" onSubmit={onSubmit} noValidate>
      <fieldset className="bare" disabled={writeBlock !== null}>
        <fieldset>
          <legend>How runs execute</legend>
          <div className="radio-row">
            {EXECUTOR_KINDS.map((kind) => (
              <label key={kind}>
                <input
                  type="radio"
                  name="executor-kind"
                  value={kind}
                  checked={draft.kind === kind}
                  onChange={() => set({ kind })}
                />{' '}
                {KIND_TEXT[kind].label}
              </label>
            ))}
          </div>
          <p className="hint">{KIND_TEXT[draft.kind].description}</p>
        </fieldset>
        {draft.kind === 'command' && <CommandFields draft={draft} error={error} set={set} />}
        {draft.kind === 'http' && <HttpFields draft={draft} error={error} set={set} />}
        <SaveRow
          what="run executor"
          busy={busy}
          writeBlock={writeBlock}
          error={shownAtField ? undefined : error}
          blocked={live.typing && 'Fix the field marked above first.'}
        >
          <span className="hint">Runs already running keep the executor they started with.</span>
        </SaveRow>
      </fieldset>
    </form>
  );
}

/** The default factory's executor: record, command or http, with the contract's defaults. */
export function ExecutorSection({ writeBlock }: { writeBlock: string | null }): ReactNode {
  const current = useCall('factories.executor', { id: 'default' }, onChanged('settings'));
  const executor = current.data?.executor;
  return (
    <section className="settings-section" aria-labelledby="executor-title">
      <h2 id="executor-title">Run executor</h2>
      <ErrorNote error={current.error} />
      {!executor && !current.error && <p className="loading">Loading…</p>}
      {executor && (
        // Saved elsewhere (another window, the CLI): start again from what the relay now holds.
        <ExecutorForm key={JSON.stringify(executor)} executor={executor} writeBlock={writeBlock} />
      )}
    </section>
  );
}
