import { findRedactedHeaderFilter } from '../automations/header-filter-rules.js';
import type { WebhookRecord } from '../store/webhooks.js';
import type { AutomationDefinition, WebhookDefinition } from './formats.js';
import type { DefinitionProblem } from './problems.js';

/** What an automation file's triggers may point at once the plan is applied. */
export interface TriggerTargets {
  factoryId: string;
  /** Webhooks that stay, by UID, with the definition they will have after this apply. */
  liveAfter: ReadonlyMap<string, { record: WebhookRecord; next: WebhookDefinition }>;
  /** Webhooks this apply deletes (their files are gone), by UID → name. */
  removed: ReadonlyMap<string, string>;
  /** Any webhook this relay ever had, deleted ones included. */
  ever: (uid: string) => WebhookRecord | null;
}

/**
 * Seed §3: an automation that selects a deleted webhook stays but stops firing until its trigger
 * points elsewhere. So a UID this apply deletes, or one deleted before, is a warning naming the
 * automation; a UID that never existed in the factory is still a problem. Header filters may
 * not name a selected webhook's own signature header (§13).
 */
export function checkTriggers(
  def: AutomationDefinition,
  targets: TriggerTargets,
  problems: DefinitionProblem[],
  warnings: string[],
): void {
  def.triggers.forEach((trigger, i) =>
    trigger.filter.webhook_ids.forEach((uid, j) => {
      if (targets.liveAfter.has(uid)) return;
      const gone = targets.removed.get(uid);
      if (gone !== undefined) {
        warnings.push(
          `automation "${def.name}" (${def.file}) will stop firing for webhook "${gone}" (${uid}): this apply deletes it; point the trigger at another webhook or remove it`,
        );
        return;
      }
      const known = targets.ever(uid);
      if (known && known.factoryId === targets.factoryId && known.deletedAt !== null) {
        warnings.push(
          `automation "${def.name}" (${def.file}) points at webhook "${known.name}" (${uid}), which was deleted: it does not fire for it`,
        );
        return;
      }
      const path = ['triggers', i, 'filter', 'webhook_ids', j];
      problems.push({
        file: def.file,
        line: def.lineOf(path),
        key: path.join('.'),
        message: `no webhook ${uid} in factory "${targets.factoryId}" (webhooks are named by UID; a new webhook's UID exists once its file has applied)`,
      });
    }),
  );
  const redacted = findRedactedHeaderFilter(def.triggers, (uid) => {
    const after = targets.liveAfter.get(uid);
    if (!after) return null;
    return {
      ...after.record,
      signatureScheme: after.next.signatureScheme ?? null,
      signatureOptions: after.next.signatureOptions ?? null,
    };
  });
  if (redacted) {
    problems.push({
      file: def.file,
      line: def.lineOf(redacted.segments),
      key: redacted.path,
      message: redacted.message,
    });
  }
}
