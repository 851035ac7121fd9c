import { useId, type ReactNode } from 'react';
import type { Webhook } from '../../../shared/contract/webhooks.js';
import type { ApiError } from '../../../shared/errors.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import type { TriggerCheck, TriggerDraft } from './draft.js';
import { FieldPicker } from './FieldPicker.js';
import { FilterEditor } from './FilterEditor.js';
import { webhooksErrorTrigger } from './save-error.js';
import { labelOf, type WebhookLabels } from './webhook-names.js';
import { WebhookPicker } from './WebhookPicker.js';

function summary(trigger: TriggerDraft, labels: WebhookLabels): string {
  // Without a webhook the trigger cannot be saved, let alone match "every delivery".
  if (trigger.webhookIds.length === 0) return 'No webhook chosen yet: choose at least one';
  const from = trigger.webhookIds.map((uid) => labelOf(labels, uid)).join(', ');
  const filters = [
    trigger.filterText.trim() === '' ? null : 'payload',
    trigger.headerText.trim() === '' ? null : 'header',
  ].filter((f) => f !== null);
  const what =
    filters.length === 0
      ? 'every delivery'
      : `${filters.join(' and ')} ${filters.length === 1 ? 'filter' : 'filters'}`;
  return `Webhook received from ${from}; ${what}`;
}

/** One Webhook trigger: its webhooks, payload and header filters, folded to one line when closed. */
export function TriggerCard({
  index,
  trigger,
  check,
  open,
  webhooks,
  labels,
  readOnly,
  error,
  onToggle,
  onChange,
  onRemove,
}: {
  index: number;
  trigger: TriggerDraft;
  check: TriggerCheck;
  open: boolean;
  webhooks: readonly Webhook[];
  labels: WebhookLabels;
  readOnly: boolean;
  /** A server error whose path points into this trigger. */
  error: ApiError | undefined;
  onToggle: () => void;
  onChange: (trigger: TriggerDraft) => void;
  onRemove: () => void;
}): ReactNode {
  const bodyId = useId();
  const title = `Trigger ${index + 1}`;
  const problem = !check.payload.ok || !check.headers.ok || error !== undefined;
  const pickerError = webhooksErrorTrigger(error) === null ? undefined : error?.message;
  return (
    <section
      className={problem ? 'trigger-card trigger-card-problem' : 'trigger-card'}
      aria-label={title}
    >
      <header className="trigger-head">
        <button
          type="button"
          className="trigger-toggle"
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={onToggle}
        >
          <span aria-hidden="true">{open ? '▾' : '▸'}</span> {title}
        </button>
        <span className="trigger-summary muted">
          {summary(trigger, labels)}
          {problem && <span className="badge badge-rejected">needs a fix</span>}
        </span>
        <button
          type="button"
          className="link"
          disabled={readOnly}
          aria-label={`Remove trigger ${index + 1}`}
          onClick={onRemove}
        >
          Remove
        </button>
      </header>
      <div id={bodyId} hidden={!open} className="trigger-body">
        <WebhookPicker
          webhooks={webhooks}
          selected={trigger.webhookIds}
          labels={labels}
          disabled={readOnly}
          error={pickerError}
          onChange={(webhookIds) => onChange({ ...trigger, webhookIds })}
        />
        <FilterEditor
          label="Payload filter"
          kind="payload"
          value={trigger.filterText}
          check={check.payload}
          readOnly={readOnly}
          onChange={(filterText) => onChange({ ...trigger, filterText })}
        />
        <FieldPicker
          webhookIds={trigger.webhookIds}
          filterText={trigger.filterText}
          readOnly={readOnly}
          onChange={(filterText) => onChange({ ...trigger, filterText })}
        />
        <FilterEditor
          label="Header filter"
          kind="headers"
          value={trigger.headerText}
          check={check.headers}
          readOnly={readOnly}
          onChange={(headerText) => onChange({ ...trigger, headerText })}
        />
        {pickerError === undefined && <ErrorNote error={error} />}
      </div>
    </section>
  );
}
