import { useState, type ReactNode } from 'react';
import type { MethodOutput } from '../../../shared/contract/index.js';
import { useClient } from '../../app/client-context.js';
import { useWriteBlock } from '../../app/relay-context.js';
import { useAction } from '../../app/use-action.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { formatCount } from '../../components/format.js';
import { useToast } from '../../components/toasts.js';

type Preview = MethodOutput<'runs.rerunMany'>;

const runs = (n: number): string => `${formatCount(n)} ${n === 1 ? 'run' : 'runs'}`;

/**
 * Re-run all: every failed (or interrupted) run of the list's automation that was not re-run
 * yet. It counts first, and the confirmation says how many.
 */
export function BulkRerun({
  status,
  automation,
}: {
  status: 'failed' | 'interrupted';
  automation: { id: string; name: string } | undefined;
}): ReactNode {
  const client = useClient();
  const toast = useToast();
  const blocked = useWriteBlock();
  const [preview, setPreview] = useState<Preview>();
  const filter = { status, ...(automation ? { automationId: automation.id } : {}) };
  const of = automation ? ` of ${automation.name}` : '';
  const count = useAction(async () => {
    const found = await client.call('runs.rerunMany', { ...filter, dryRun: true });
    if (found.count === 0) {
      toast('success', `No ${status} run${of} is waiting for a re-run.`);
      return;
    }
    setPreview(found);
  });
  const rerun = async (): Promise<void> => {
    const done = await client.call('runs.rerunMany', filter);
    setPreview(undefined);
    toast('success', `Re-ran ${runs(done.count)}${of}: the new runs are queued.`);
  };
  return (
    <>
      <button
        type="button"
        disabled={blocked !== null || count.busy}
        title={blocked ?? `Re-run every ${status} run${of} that was not re-run yet`}
        onClick={() => void count.run()}
      >
        Re-run all {status}…
      </button>
      <ErrorNote error={count.error} />
      {preview && (
        <ConfirmDialog
          title={`Re-run ${runs(preview.count)}?`}
          confirmLabel={`Re-run ${formatCount(preview.count)}`}
          onConfirm={rerun}
          onClose={() => setPreview(undefined)}
        >
          <p>
            {runs(preview.count)} {status}
            {of} will run again as new runs with the same input, each linked to the run it repeats.
            The {status} runs stay as they are, and none is re-run twice.
          </p>
          {preview.skipped.length > 0 && (
            <p className="hint">
              {runs(preview.skipped.length)} cannot be re-run (deleted automation or pruned payload)
              and are left out.
            </p>
          )}
          {preview.remaining > 0 && (
            <p className="hint">
              {runs(preview.remaining)} more wait for another Re-run all (500 at a time).
            </p>
          )}
        </ConfirmDialog>
      )}
    </>
  );
}
