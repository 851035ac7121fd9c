import { useState, type ReactNode } from 'react';
import { REPLAY_MANY_MAX } from '../../../shared/contract/replay.js';
import { useClient } from '../../app/client-context.js';
import { useWriteBlock } from '../../app/relay-context.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { formatCount } from '../../components/format.js';
import { useToast } from '../../components/toasts.js';
import type { Delivery } from './types.js';
import { plural } from './words.js';

/**
 * Replay the deliveries the list shows (as filtered or searched), in bulk: the Accepted ones,
 * oldest first, at most 500. The confirmation says how many and what happens.
 */
export function ReplayShown({ shown }: { shown: readonly Delivery[] }): ReactNode {
  const client = useClient();
  const toast = useToast();
  const blocked = useWriteBlock();
  const [confirming, setConfirming] = useState(false);
  const accepted = shown.filter((d) => d.label === 'Accepted');
  // The newest 500, replayed oldest first so the replays keep the order they came in.
  const chosen = accepted.slice(0, REPLAY_MANY_MAX).reverse();
  const left = shown.length - accepted.length;
  const replay = async (): Promise<void> => {
    const { items } = await client.call('deliveries.replayMany', { ids: chosen.map((d) => d.id) });
    const runs = items.reduce((sum, item) => sum + item.runs.length, 0);
    toast(
      'success',
      `Replayed ${plural(items.length, 'delivery', 'deliveries')}: ${plural(runs, 'run')} queued.`,
    );
    setConfirming(false);
  };
  const reason =
    blocked ?? (chosen.length === 0 ? 'No Accepted delivery is shown to replay.' : null);
  return (
    <>
      <button
        type="button"
        disabled={reason !== null}
        title={reason ?? 'Replay the Accepted deliveries shown, through today’s automations'}
        onClick={() => setConfirming(true)}
      >
        Replay shown…
      </button>
      {confirming && (
        <ConfirmDialog
          title={`Replay ${plural(chosen.length, 'delivery', 'deliveries')}?`}
          confirmLabel={`Replay ${formatCount(chosen.length)}`}
          onConfirm={replay}
          onClose={() => setConfirming(false)}
        >
          <p>
            {formatCount(chosen.length)} Accepted{' '}
            {chosen.length === 1 ? 'delivery goes' : 'deliveries go'} through today’s automations
            again, oldest first, each as a new log entry that names its original (the duplicate
            check is skipped on purpose). Every run they match starts.
          </p>
          {left > 0 && (
            <p className="hint">
              {plural(left, 'shown entry is', 'shown entries are')} not Accepted and keep no
              payload: left out.
            </p>
          )}
          {accepted.length > chosen.length && (
            <p className="hint">
              Only the newest {formatCount(REPLAY_MANY_MAX)} at a time; the{' '}
              {formatCount(accepted.length - chosen.length)} older ones stay as they are.
            </p>
          )}
        </ConfirmDialog>
      )}
    </>
  );
}
