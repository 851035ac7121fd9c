import type { ReactNode } from 'react';
import { useClient } from '../../app/client-context.js';
import { routeHref } from '../../app/router.js';
import { useCall } from '../../app/use-call.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { useToast } from '../../components/toasts.js';
import type { Webhook } from './types.js';
import { plural } from './words.js';

/** Delete: names the automations that will stop firing, and says senders get 404 at once. */
export function DeleteWebhookDialog({
  webhook,
  managed,
  onClose,
  onDeleted,
}: {
  webhook: Webhook;
  managed: boolean;
  onClose: () => void;
  onDeleted: () => void;
}): ReactNode {
  const client = useClient();
  const toast = useToast();
  const automations = useCall('automations.list', { factory: webhook.factory });
  const affected = (automations.data?.items ?? []).filter((automation) =>
    automation.triggers.some((trigger) => trigger.filter.webhook_ids.includes(webhook.uid)),
  );
  const remove = async (): Promise<void> => {
    await client.call('webhooks.delete', { uid: webhook.uid });
    toast(
      'success',
      affected.length > 0
        ? `${webhook.name} was deleted; ${plural(affected.length, 'automation')} no longer ${
            affected.length === 1 ? 'fires' : 'fire'
          } from it.`
        : `${webhook.name} was deleted.`,
    );
    onDeleted();
  };
  return (
    <ConfirmDialog
      title={`Delete ${webhook.name}?`}
      confirmLabel="Delete webhook"
      destructive
      onConfirm={remove}
      onClose={onClose}
    >
      <p>
        Senders get 404 at once. This cannot be undone: a new webhook gets a new UID and ingress
        URL.
      </p>
      {automations.error ? (
        <p className="warning-note">
          Could not read the automations that use it ({automations.error.message}).
        </p>
      ) : !automations.data ? (
        <p className="loading">Checking which automations use it…</p>
      ) : affected.length === 0 ? (
        <p>No automation selects this webhook.</p>
      ) : (
        <p className="warning-note delete-affected">
          <strong>
            {plural(affected.length, 'automation')} will stop firing:{' '}
            {affected.map((automation, index) => (
              <span key={automation.id}>
                {index > 0 && ', '}
                <a href={routeHref('automations', automation.id)}>{automation.name}</a>
              </span>
            ))}
          </strong>
          .{' '}
          {affected.length === 1
            ? 'It stays visible; point its triggers at another webhook or remove it.'
            : 'They stay visible; point their triggers at another webhook or remove them.'}
        </p>
      )}
      {managed && (
        <p className="hint">
          Its definition file <code>webhooks/{webhook.name}.yaml</code> is removed.
        </p>
      )}
    </ConfirmDialog>
  );
}
