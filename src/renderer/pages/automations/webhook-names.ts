import type { Automation } from '../../../shared/contract/automations.js';
import type { Webhook } from '../../../shared/contract/webhooks.js';

/** How the editor names each webhook it may show, by UID. */
export type WebhookLabels = ReadonlyMap<string, string>;

/**
 * Live webhooks by name; deleted ones by the name the automation remembers, marked "(deleted)",
 * as the automations list shows them. A UID stands in only when no name is known.
 */
export function webhookLabels(
  live: readonly Webhook[],
  remembered: Automation['webhooks'] | undefined,
): WebhookLabels {
  const labels = new Map<string, string>();
  for (const w of remembered ?? []) labels.set(w.uid, `${w.name ?? w.uid} (deleted)`);
  for (const w of live) labels.set(w.uid, w.name);
  return labels;
}

export function labelOf(labels: WebhookLabels, uid: string): string {
  return labels.get(uid) ?? `${uid} (deleted)`;
}

/**
 * The editor's banner for selected webhooks that were deleted, by name. The API's own sentence
 * names them by UID, which the operator never chose them by.
 */
export function deletedWebhookNote(automation: Automation, labels: WebhookLabels): string | null {
  const deleted = automation.deletedWebhookUids;
  if (deleted.length === 0) return null;
  const which = deleted.map((uid) => labelOf(labels, uid)).join(', ');
  return deleted.length === automation.webhooks.length
    ? `This automation points at ${which}: it fires no more; point its triggers at another webhook or remove them.`
    : `This automation points at ${which}; its other webhooks still fire.`;
}
