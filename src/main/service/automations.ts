import { DELETED_WEBHOOK_WARNING, type Automation } from '../../shared/contract/automations.js';
import type { WebhookTrigger } from '../../shared/contract/triggers.js';
import { ApiError } from '../../shared/errors.js';
import { findRedactedHeaderFilter } from '../automations/header-filter-rules.js';
import { newAutomationId } from '../ids.js';
import type { AutomationRecord } from '../store/automations.js';
import type { WebhookRecord } from '../store/webhooks.js';
import type { FullServiceDeps } from './automation-deps.js';
import type { ServiceHandlers } from './handlers.js';
import { iso } from './to-json.js';
import { requireFactory } from './webhooks.js';

const DAY_MS = 24 * 60 * 60_000;

type AutomationHandlers = Pick<
  ServiceHandlers,
  | 'automations.list'
  | 'automations.get'
  | 'automations.create'
  | 'automations.update'
  | 'automations.delete'
>;

const selectedUids = (triggers: readonly WebhookTrigger[]): string[] => [
  ...new Set(triggers.flatMap((t) => t.filter.webhook_ids)),
];

function warningsFor(uids: string[], deleted: string[]): string[] {
  if (uids.length === 0) return ['has no Webhook trigger: it never fires'];
  if (deleted.length === 0) return [];
  const which = deleted.join(', ');
  return deleted.length === uids.length
    ? [
        `${DELETED_WEBHOOK_WARNING} (${which}): it fires no more; point its triggers at another webhook or remove them`,
      ]
    : [`${DELETED_WEBHOOK_WARNING} (${which}); its other webhooks still fire`];
}

/** The webhooks these triggers select, by UID (deleted ones included; unknown ones absent). */
async function webhooksOf(
  deps: FullServiceDeps,
  triggers: readonly WebhookTrigger[],
): Promise<Map<string, WebhookRecord>> {
  const found = new Map<string, WebhookRecord>();
  for (const uid of selectedUids(triggers)) {
    const webhook = await deps.webhooks.get(uid);
    if (webhook) found.set(uid, webhook);
  }
  return found;
}

/** The automation as the API shows it, with what the list needs: webhook names, warnings, runs in 24 h. */
export async function automationJson(
  a: AutomationRecord,
  deps: FullServiceDeps,
): Promise<Automation> {
  const uids = selectedUids(a.triggers);
  const selected = await webhooksOf(deps, a.triggers);
  const webhooks = uids.map((uid) => {
    const w = selected.get(uid);
    return { uid, name: w?.name ?? null, deleted: !w || w.deletedAt !== null };
  });
  const deletedWebhookUids = webhooks.filter((w) => w.deleted).map((w) => w.uid);
  return {
    id: a.id,
    factory: a.factoryId,
    name: a.name,
    prompt: a.prompt,
    enabled: a.enabled,
    triggers: a.triggers,
    webhooks,
    deletedWebhookUids,
    warnings: warningsFor(uids, deletedWebhookUids),
    runs24h: await deps.runs.countSince(a.id, deps.now() - DAY_MS),
    sourceFile: a.sourceFile,
    createdAt: iso(a.createdAt),
    updatedAt: iso(a.updatedAt),
  };
}

/** A header filter may not name a selected webhook's own (redacted) signature header. */
export async function assertHeaderFiltersAllowed(
  deps: FullServiceDeps,
  triggers: readonly WebhookTrigger[],
  pathOf?: (index: number) => string,
): Promise<void> {
  const selected = await webhooksOf(deps, triggers);
  const problem = findRedactedHeaderFilter(triggers, (uid) => selected.get(uid) ?? null, pathOf);
  if (problem) {
    throw new ApiError('invalid_input', `${problem.path}: ${problem.message}`, problem.path);
  }
}

/** Triggers name live webhooks of the automation's own factory, checked when saved. */
async function assertWebhooksExist(
  deps: FullServiceDeps,
  factoryId: string,
  triggers: readonly WebhookTrigger[],
): Promise<void> {
  const selected = await webhooksOf(deps, triggers);
  triggers.forEach((trigger, i) => {
    trigger.filter.webhook_ids.forEach((uid, j) => {
      const path = `triggers.${i}.filter.webhook_ids.${j}`;
      const webhook = selected.get(uid);
      if (!webhook || webhook.factoryId !== factoryId) {
        throw new ApiError(
          'invalid_input',
          `${path}: no webhook ${uid} in factory "${factoryId}"`,
          path,
        );
      }
      if (webhook.deletedAt !== null) {
        throw new ApiError(
          'invalid_input',
          `${path}: webhook ${uid} ("${webhook.name}") was deleted; point the trigger at another webhook or remove it`,
          path,
        );
      }
    });
  });
}

async function assertEditable(
  deps: FullServiceDeps,
  factoryId: string,
  name: string,
): Promise<void> {
  if ((await deps.factories.get(factoryId))?.definitionsDir) {
    throw new ApiError(
      'conflict',
      `Factory "${factoryId}" is managed by definition files: edit automations/${name}.md instead.`,
    );
  }
}

async function assertNameFree(
  deps: FullServiceDeps,
  factoryId: string,
  name: string,
  self?: string,
): Promise<void> {
  if ((await deps.automations.list(factoryId)).some((a) => a.name === name && a.id !== self)) {
    throw new ApiError('conflict', `name: an automation named "${name}" already exists`, 'name');
  }
}

export function automationHandlers(deps: FullServiceDeps): AutomationHandlers {
  const requireAutomation = async (id: string): Promise<AutomationRecord> => {
    const automation = await deps.automations.get(id);
    if (!automation) throw new ApiError('not_found', `No automation ${id}.`);
    return automation;
  };
  const changed = async (): Promise<void> => {
    await deps.automationIndex.reload();
    deps.events.emit({ type: 'changed', resource: 'automations' });
  };

  return {
    'automations.list': async ({ factory }) => {
      await requireFactory(deps, factory);
      const items = [];
      for (const a of await deps.automations.list(factory))
        items.push(await automationJson(a, deps));
      return { items };
    },

    'automations.get': async ({ id }) => automationJson(await requireAutomation(id), deps),

    'automations.create': (input) =>
      deps.writes.run(async () => {
        const factory = await requireFactory(deps, input.factory);
        await assertEditable(deps, factory.id, input.name);
        await assertNameFree(deps, factory.id, input.name);
        await assertWebhooksExist(deps, factory.id, input.triggers);
        await assertHeaderFiltersAllowed(deps, input.triggers);
        const now = deps.now();
        const record: AutomationRecord = {
          id: newAutomationId(),
          factoryId: factory.id,
          name: input.name,
          prompt: input.prompt,
          enabled: input.enabled,
          triggers: input.triggers,
          sourceFile: null,
          createdAt: now,
          updatedAt: now,
        };
        await deps.automations.insert(record);
        await changed();
        return automationJson(record, deps);
      }),

    'automations.update': ({ id, ...changes }) =>
      deps.writes.run(async () => {
        const current = await requireAutomation(id);
        await assertEditable(deps, current.factoryId, current.name);
        if (changes.name !== undefined)
          await assertNameFree(deps, current.factoryId, changes.name, id);
        if (changes.triggers !== undefined) {
          await assertWebhooksExist(deps, current.factoryId, changes.triggers);
          await assertHeaderFiltersAllowed(deps, changes.triggers);
        }
        const updated: AutomationRecord = {
          ...current,
          name: changes.name ?? current.name,
          prompt: changes.prompt ?? current.prompt,
          enabled: changes.enabled ?? current.enabled,
          triggers: changes.triggers ?? current.triggers,
          updatedAt: deps.now(),
        };
        await deps.automations.update(updated);
        await changed();
        return automationJson(updated, deps);
      }),

    'automations.delete': ({ id }) =>
      deps.writes.run(async () => {
        const current = await requireAutomation(id);
        await assertEditable(deps, current.factoryId, current.name);
        // Queued runs would have no executor to go to once the automation is gone.
        const cancelled = await deps.runs.failQueuedOf(
          id,
          'the automation was deleted before this run started',
          deps.now(),
        );
        await deps.automations.remove(id);
        await changed();
        for (const run of cancelled) {
          deps.events.emit({
            type: 'run',
            run: { id: run.id, automationId: id, deliveryId: run.deliveryId, status: 'failed' },
          });
        }
        return { id, deleted: true as const };
      }),
  };
}
