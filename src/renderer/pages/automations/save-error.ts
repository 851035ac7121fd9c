import { ApiError } from '../../../shared/errors.js';
import { withoutPath } from '../../components/field-errors.js';
import type { Draft, TriggerDraft } from './draft.js';
import { labelOf, type WebhookLabels } from './webhook-names.js';

/** `triggers.N.filter.webhook_ids` (the list) or `….webhook_ids.M` (one UID in it). */
const WEBHOOKS_PATH = /^triggers\.(\d+)\.filter\.webhook_ids(?:\.(\d+))?$/;

/** Which trigger's webhook checkboxes a save error is about, or null when it is about something else. */
export function webhooksErrorTrigger(error: ApiError | undefined): number | null {
  const match = WEBHOOKS_PATH.exec(error?.path ?? '');
  return match ? Number(match[1]) : null;
}

/**
 * A save error as the operator should read it beside the webhook checkboxes: the API speaks of
 * paths and UIDs ("must name at least one webhook UID"), the picker shows names and checkboxes.
 * Errors about anything else are returned as they are.
 */
export function plainSaveError(
  error: ApiError,
  triggers: readonly TriggerDraft[],
  labels: WebhookLabels,
): ApiError {
  const match = WEBHOOKS_PATH.exec(error.path ?? '');
  if (!match) return error;
  const said = withoutPath(error);
  const uid =
    match[2] === undefined ? undefined : triggers[Number(match[1])]?.webhookIds[Number(match[2])];
  const most = /at most (\d+)/.exec(said);
  const message =
    uid !== undefined && /was deleted/.test(said)
      ? `${labelOf(labels, uid)} can no longer fire: remove it, or choose another webhook.`
      : /at least one/.test(said)
        ? 'Choose at least one webhook.'
        : most
          ? `Choose at most ${most[1]} webhooks.`
          : said;
  return new ApiError(error.code, message, error.path);
}

/**
 * Refuses a blank name or prompt before asking the API, in the form's own words beside the
 * field (the browser's "Please fill out this field" bubble looks like no other form here).
 */
export function missingField(draft: Draft): ApiError | null {
  if (draft.name.trim() === '')
    return new ApiError(
      'invalid_input',
      'Name is required: letters, digits, ".", "_" or "-".',
      'name',
    );
  if (draft.prompt.trim() === '')
    return new ApiError(
      'invalid_input',
      'Prompt is required: say what the run should do.',
      'prompt',
    );
  return null;
}

/** The one-line "Not saved: …" under the form; a trigger's webhook error says which trigger. */
export function saveSummary(error: ApiError): string {
  const trigger = webhooksErrorTrigger(error);
  return trigger === null ? error.message : `Trigger ${trigger + 1}: ${error.message}`;
}
