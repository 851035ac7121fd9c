import type { ReactNode } from 'react';
import type { Webhook } from '../../../shared/contract/webhooks.js';
import type { ApiError } from '../../../shared/errors.js';
import {
  checkTrigger,
  MAX_TRIGGERS,
  newTrigger,
  triggerIndexOf,
  type TriggerCheck,
  type TriggerDraft,
} from './draft.js';
import { TriggerCard } from './TriggerCard.js';
import type { WebhookLabels } from './webhook-names.js';

/** The automation's triggers as cards; a run starts when any one of them matches. */
export function TriggerList({
  triggers,
  checks,
  open,
  webhooks,
  labels,
  readOnly,
  error,
  onOpenChange,
  onChange,
}: {
  triggers: readonly TriggerDraft[];
  checks: readonly TriggerCheck[];
  /** Keys of the cards shown open. */
  open: ReadonlySet<number>;
  webhooks: readonly Webhook[];
  labels: WebhookLabels;
  readOnly: boolean;
  error: ApiError | undefined;
  onOpenChange: (key: number, open: boolean, index: number) => void;
  onChange: (triggers: TriggerDraft[]) => void;
}): ReactNode {
  const errorIndex = triggerIndexOf(error?.path);
  const add = (): void => {
    const trigger = newTrigger();
    onChange([...triggers, trigger]);
    onOpenChange(trigger.key, true, triggers.length);
  };
  return (
    <div className="trigger-list">
      <div className="trigger-list-head">
        <h3>Triggers</h3>
        <span className="hint">
          A run starts when an Accepted delivery matches any trigger.
          {triggers.length === 0 && ' Without a trigger this automation never runs.'}
        </span>
      </div>
      {triggers.map((trigger, index) => (
        <TriggerCard
          key={trigger.key}
          index={index}
          trigger={trigger}
          check={checks[index] ?? checkTrigger(trigger)}
          open={open.has(trigger.key) || errorIndex === index}
          webhooks={webhooks}
          labels={labels}
          readOnly={readOnly}
          error={errorIndex === index ? error : undefined}
          onToggle={() => onOpenChange(trigger.key, !open.has(trigger.key), index)}
          onChange={(next) => onChange(triggers.map((t) => (t.key === trigger.key ? next : t)))}
          onRemove={() => onChange(triggers.filter((t) => t.key !== trigger.key))}
        />
      ))}
      <button
        type="button"
        disabled={readOnly || triggers.length >= MAX_TRIGGERS}
        title={triggers.length >= MAX_TRIGGERS ? `At most ${MAX_TRIGGERS} triggers` : undefined}
        onClick={add}
      >
        Add trigger
      </button>
    </div>
  );
}
