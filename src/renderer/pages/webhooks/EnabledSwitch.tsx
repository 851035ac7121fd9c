import { useState, type ReactNode } from 'react';
import { useClient } from '../../app/client-context.js';
import { useWriteBlock } from '../../app/relay-context.js';
import { toApiError } from '../../app/use-call.js';
import { useToast } from '../../components/toasts.js';
import type { Webhook } from './types.js';

/** The Enabled toggle: off means senders get 404 at once; history and automations stay. */
export function EnabledSwitch({
  webhook,
  onChanged,
  showText = true,
}: {
  webhook: Webhook;
  onChanged: () => void;
  showText?: boolean;
}): ReactNode {
  const client = useClient();
  const toast = useToast();
  const blocked = useWriteBlock();
  const [busy, setBusy] = useState(false);
  // What the operator chose, shown until the list reloads with the relay's answer: a controlled
  // checkbox would otherwise snap back while the toast already says it changed.
  const [chosen, setChosen] = useState<{ enabled: boolean; of: Webhook } | null>(null);
  const enabledShown = chosen?.of === webhook ? chosen.enabled : webhook.enabled;
  const toggle = async (enabled: boolean): Promise<void> => {
    setBusy(true);
    setChosen({ enabled, of: webhook });
    try {
      await client.call('webhooks.update', { uid: webhook.uid, enabled });
      toast(
        'success',
        enabled
          ? `${webhook.name} is enabled: deliveries are accepted again.`
          : `${webhook.name} is disabled: senders get 404 until you enable it again.`,
      );
      onChanged();
    } catch (error) {
      setChosen(null);
      toast('error', `Could not change ${webhook.name}: ${toApiError(error).message}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <label className="switch" title={blocked ?? undefined}>
      <input
        type="checkbox"
        role="switch"
        aria-label={`Enabled: ${webhook.name}`}
        checked={enabledShown}
        disabled={busy || blocked !== null}
        onClick={(event) => event.stopPropagation()}
        onKeyDown={(event) => event.stopPropagation()}
        onChange={(event) => void toggle(event.target.checked)}
      />
      {showText && <span aria-hidden="true">{enabledShown ? 'on' : 'off'}</span>}
    </label>
  );
}
