import { useState, type FormEvent, type ReactNode } from 'react';
import type { ApiError } from '../../../shared/errors.js';
import { useClient } from '../../app/client-context.js';
import { useRelay } from '../../app/relay-context.js';
import { toApiError } from '../../app/use-call.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { useToast } from '../../components/toasts.js';
import { errorAt, TextField, unclaimed } from '../../components/Field.js';
import { PlanTable, PlanWarnings, planSummary, type SyncResult } from './PlanTable.js';

function deletions(plan: SyncResult): string {
  const deleted = plan.items.filter((i) => i.action === 'delete');
  if (deleted.length === 0) return 'Nothing here is deleted.';
  const names = deleted.map((i) => `${i.kind} ${i.name}`).join(', ');
  return `${deleted.length} without a file ${deleted.length === 1 ? 'is' : 'are'} deleted: ${names}. A deleted webhook's URL answers 404 at once.`;
}

/** Not managed yet: plan a directory, then apply it behind a confirm that shows that plan. */
export function ApplyDirectory({
  writeBlock,
  onResult,
}: {
  writeBlock: string | null;
  onResult: (result: SyncResult | undefined) => void;
}): ReactNode {
  const client = useClient();
  const toast = useToast();
  const relay = useRelay();
  const [dir, setDir] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const [confirming, setConfirming] = useState<SyncResult>();

  const plan = async (thenConfirm: boolean): Promise<void> => {
    setBusy(true);
    setError(undefined);
    try {
      const outcome = await client.call('factories.sync', { id: 'default', dir, dryRun: true });
      onResult(outcome);
      if (thenConfirm) setConfirming(outcome);
    } catch (failure) {
      onResult(undefined);
      setError(toApiError(failure));
    } finally {
      setBusy(false);
    }
  };

  const apply = async (planned: SyncResult): Promise<void> => {
    const outcome = await client.call('factories.sync', {
      id: 'default',
      dir: planned.definitionsDir,
    });
    setConfirming(undefined);
    onResult(outcome);
    toast('success', `Applied ${outcome.definitionsDir}: ${planSummary(outcome.items)}.`);
    // The factory is managed now even when no webhook changed (and so no event said so).
    relay.reload();
  };

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    void plan(true);
  };

  return (
    <>
      <p>
        This factory is not managed by definition files. To keep its webhooks and automations in a
        directory (say, a git repository), run <code>hookport apply &lt;dir&gt;</code>, or apply a
        directory here. Either way the relay then follows those files and watches the directory.
      </p>
      <form className="form settings-form" onSubmit={submit} noValidate>
        <fieldset className="bare" disabled={writeBlock !== null}>
          <TextField
            label="Definitions directory"
            hint="An absolute path on the relay's machine holding webhooks/*.yaml and automations/*.md. Apply shows the plan first."
            error={errorAt(error, 'dir')}
            value={dir}
            onChange={setDir}
            placeholder="/home/you/factory"
            spellCheck={false}
          />
          <ErrorNote error={unclaimed(error, ['dir'])} />
          <div className="actions">
            <button
              type="button"
              disabled={busy || dir.trim() === ''}
              title={writeBlock ?? undefined}
              onClick={() => void plan(false)}
            >
              Plan only
            </button>
            <button
              type="submit"
              className="primary"
              disabled={busy || dir.trim() === ''}
              title={writeBlock ?? undefined}
            >
              Apply…
            </button>
          </div>
        </fieldset>
      </form>
      {confirming && (
        <ConfirmDialog
          title="Apply this directory?"
          confirmLabel="Apply"
          destructive={confirming.items.some((i) => i.action === 'delete')}
          onClose={() => setConfirming(undefined)}
          onConfirm={() => apply(confirming)}
        >
          <p>
            The default factory becomes managed by <code>{confirming.definitionsDir}</code>: from
            then on its webhooks and automations follow these files. {deletions(confirming)}
          </p>
          <p>Plan: {planSummary(confirming.items)}.</p>
          <PlanTable items={confirming.items} compact />
          <PlanWarnings warnings={confirming.warnings} />
        </ConfirmDialog>
      )}
    </>
  );
}
