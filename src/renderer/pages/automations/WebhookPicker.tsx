import { useId, type ReactNode } from 'react';
import type { Webhook } from '../../../shared/contract/webhooks.js';
import { routeHref } from '../../app/router.js';
import { labelOf, type WebhookLabels } from './webhook-names.js';

/**
 * "Webhook received from": one checkbox per live webhook, by name; the trigger stores UIDs.
 * A selected UID whose webhook was deleted stays listed, so it can be seen and removed.
 */
export function WebhookPicker({
  webhooks,
  selected,
  labels,
  disabled,
  error,
  onChange,
}: {
  webhooks: readonly Webhook[];
  selected: readonly string[];
  /** Names for the selected webhooks that were deleted ("tok-hook (deleted)"). */
  labels: WebhookLabels;
  disabled: boolean;
  /** Why saving refused these webhooks, shown under the checkboxes. */
  error: string | undefined;
  onChange: (uids: string[]) => void;
}): ReactNode {
  const baseId = useId();
  const errorId = `${baseId}-error`;
  const live = new Set(webhooks.map((w) => w.uid));
  const deleted = selected.filter((uid) => !live.has(uid));
  const toggle = (uid: string, on: boolean): void =>
    onChange(on ? [...selected, uid] : selected.filter((s) => s !== uid));
  return (
    <fieldset
      className="webhook-picker"
      aria-invalid={error === undefined ? undefined : true}
      aria-describedby={error === undefined ? undefined : errorId}
    >
      <legend>Webhook received from</legend>
      {webhooks.length === 0 && (
        <p className="hint">
          No webhooks yet: <a href={routeHref('webhooks')}>add a webhook</a> first, then select it
          here.
        </p>
      )}
      <ul className="webhook-options">
        {webhooks.map((webhook) => {
          const id = `${baseId}-${webhook.uid}`;
          return (
            <li key={webhook.uid}>
              <input
                type="checkbox"
                id={id}
                checked={selected.includes(webhook.uid)}
                disabled={disabled}
                onChange={(event) => toggle(webhook.uid, event.target.checked)}
              />
              <label htmlFor={id}>{webhook.name}</label>
              <code className="muted">{webhook.uid}</code>
              {!webhook.enabled && <span className="badge badge-duplicate">disabled</span>}
            </li>
          );
        })}
        {deleted.map((uid) => {
          const label = labelOf(labels, uid);
          return (
            <li key={uid} className="deleted-webhook">
              <span className="badge badge-warning" title={uid}>
                {label}
              </span>
              <button
                type="button"
                className="link"
                disabled={disabled}
                aria-label={`Remove ${label}`}
                onClick={() => toggle(uid, false)}
              >
                Remove
              </button>
            </li>
          );
        })}
      </ul>
      {error !== undefined && (
        <p id={errorId} className="error-note" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
