import { newAutomationId, newWebhookUid } from '../ids.js';
import type { RunRecord } from '../store/runs.js';
import type { Store } from '../store/store.js';
import type { WebhookDefinition } from './formats.js';
import { linkFields } from './link-definition.js';
import type { Plan } from './plan.js';

export interface ApplyDeps {
  store: Pick<Store, 'transaction'>;
  now: () => number;
}

export interface Applied {
  /** UIDs assigned to webhooks whose files applied for the first time, by name. */
  created: Map<string, string>;
  /** Queued runs of deleted automations, now failed. */
  failedRuns: RunRecord[];
  /** Webhooks whose file added or changed a provider link: to point and check now. */
  linked: string[];
}

const definition = (d: WebhookDefinition) => ({
  authMode: d.authMode,
  signatureScheme: d.signatureScheme ?? null,
  signatureOptions: d.signatureOptions ?? null,
  secretName: d.secretName,
  deliveryIdHeader: d.deliveryIdHeader ?? null,
  eventTypePath: d.eventTypePath ?? null,
  enabled: d.enabled,
});

/** All or nothing: every row the plan changes, and the factory's directory, in one transaction. */
export function applyPlan(
  plan: Plan,
  factoryId: string,
  dir: string,
  deps: ApplyDeps,
): Promise<Applied> {
  return deps.store.transaction(async (tx): Promise<Applied> => {
    const now = deps.now();
    const created = new Map<string, string>();
    const failedRuns: RunRecord[] = [];
    const linked: string[] = [];
    // A link is the file's like every other key: written with it, removed with it (the provider's
    // hook itself is never touched by a removal).
    const setLink = async (uid: string, def: WebhookDefinition) => {
      const current = await tx.links.get(uid);
      if (!def.link) {
        if (current) await tx.links.remove(uid);
        return;
      }
      await tx.links.put({
        webhookUid: uid,
        ...linkFields(def.link),
        createdAt: current?.createdAt ?? now,
      });
      linked.push(uid);
    };
    await tx.factories.setDefinitionsDir(factoryId, dir);
    for (const current of plan.webhooks.remove) await tx.webhooks.softDelete(current.uid, now);
    for (const { current, next } of plan.webhooks.update) {
      await tx.webhooks.redefine(current.uid, definition(next));
      await setLink(current.uid, next);
    }
    for (const def of plan.webhooks.create) {
      const uid = newWebhookUid();
      await tx.webhooks.insert({
        uid,
        factoryId,
        name: def.name,
        createdAt: now,
        ...definition(def),
      });
      created.set(def.name, uid);
      await setLink(uid, def);
    }
    for (const current of plan.automations.remove) {
      failedRuns.push(
        ...(await tx.runs.failQueuedOf(
          current.id,
          'the automation was deleted (its file is gone) before this run started',
          now,
        )),
      );
      await tx.automations.remove(current.id);
    }
    for (const { current, next } of plan.automations.update) {
      await tx.automations.update({
        ...current,
        prompt: next.prompt,
        enabled: next.enabled,
        triggers: next.triggers,
        sourceFile: next.file,
        updatedAt: now,
      });
    }
    for (const def of plan.automations.create) {
      await tx.automations.insert({
        id: newAutomationId(),
        factoryId,
        name: def.name,
        prompt: def.prompt,
        enabled: def.enabled,
        triggers: def.triggers,
        sourceFile: def.file,
        createdAt: now,
        updatedAt: now,
      });
    }
    return { created, failedRuns, linked };
  });
}
