import { useState, type ReactNode } from 'react';
import type { ApiError } from '../../../shared/errors.js';
import { useClient } from '../../app/client-context.js';
import { useRelay } from '../../app/relay-context.js';
import { toApiError } from '../../app/use-call.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { useToast } from '../../components/toasts.js';
import { ApplyDirectory } from './ApplyDirectory.js';
import { planSummary, SyncOutcome, type SyncResult } from './PlanTable.js';

function ManagedSync({
  dir,
  writeBlock,
  onResult,
}: {
  dir: string | null;
  writeBlock: string | null;
  onResult: (result: SyncResult | undefined) => void;
}): ReactNode {
  const client = useClient();
  const toast = useToast();
  const [planOnly, setPlanOnly] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();

  const sync = async (): Promise<void> => {
    setBusy(true);
    setError(undefined);
    try {
      const outcome = await client.call('factories.sync', { id: 'default', dryRun: planOnly });
      onResult(outcome);
      toast('success', `${outcome.applied ? 'Synced' : 'Planned'}: ${planSummary(outcome.items)}.`);
    } catch (failure) {
      onResult(undefined);
      setError(toApiError(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <p>
        Managed by <code>{dir}</code>: webhooks and automations follow the files in it. The
        directory is watched, so saved edits apply on their own; a sync also picks up secrets
        rotated in the store.
      </p>
      <div className="actions">
        <span className="check-row">
          <label>
            <input
              type="checkbox"
              checked={planOnly}
              disabled={writeBlock !== null}
              onChange={(event) => setPlanOnly(event.target.checked)}
            />{' '}
            Plan only
          </label>
        </span>
        <button
          type="button"
          className="primary"
          disabled={busy || writeBlock !== null}
          title={writeBlock ?? undefined}
          onClick={() => void sync()}
        >
          Sync now
        </button>
      </div>
      <ErrorNote error={error} />
      {error?.path && <p className="hint">Fix it in the file and save, then sync again.</p>}
    </>
  );
}

/** The default factory's definition directory: sync it, or make the factory managed by one. */
export function DefinitionsSection({ writeBlock }: { writeBlock: string | null }): ReactNode {
  const { factory } = useRelay();
  // Kept here: applying a directory turns this section into the managed one, result and all.
  const [result, setResult] = useState<SyncResult>();
  return (
    <section className="settings-section" aria-labelledby="definitions-title">
      <h2 id="definitions-title">Definitions</h2>
      {factory.managed ? (
        <ManagedSync dir={factory.definitionsDir} writeBlock={writeBlock} onResult={setResult} />
      ) : (
        <ApplyDirectory writeBlock={writeBlock} onResult={setResult} />
      )}
      {result && <SyncOutcome result={result} />}
    </section>
  );
}
