import { DELETED_WEBHOOK_WARNING, type Automation } from '../../shared/contract/automations.js';
import type { WebhookTrigger } from '../../shared/contract/triggers.js';
import { ApiError } from '../../shared/errors.js';
import { findRedactedHeaderFilter } from '../automations/header-filter-rules.js';
import { newAutomationId } from '../ids.js';
import type { AutomationRecord } from '../store/automations-repo.js';
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

/** The automation as the API shows it, with what the list needs: webhook names, warnings, runs in 24 h. */
export function automationJson(a: AutomationRecord, deps: FullServiceDeps): Automation {
  const uids = selectedUids(a.triggers);
  const webhooks = uids.map((uid) => {
    const w = deps.webhooks.get(uid);
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
    runs24h: deps.runs.countSince(a.id, deps.now() - DAY_MS),
    sourceFile: a.sourceFile,
    createdAt: iso(a.createdAt),
    updatedAt: iso(a.updatedAt),
  };
}

/** A header filter may not name a selected webhook's own (redacted) signature header. */
export function assertHeaderFiltersAllowed(
  deps: FullServiceDeps,
  triggers: readonly WebhookTrigger[],
  pathOf?: (index: number) => string,
): void {
  const problem = findRedactedHeaderFilter(triggers, (uid) => deps.webhooks.get(uid), pathOf);
  if (problem) {
    throw new ApiError('invalid_input', `${problem.path}: ${problem.message}`, problem.path);
  }
}

/** Triggers name live webhooks of the automation's own factory, checked when saved. */
function assertWebhooksExist(
  deps: FullServiceDeps,
  factoryId: string,
  triggers: readonly WebhookTrigger[],
): void {
  triggers.forEach((trigger, i) => {
    trigger.filter.webhook_ids.forEach((uid, j) => {
      const path = `triggers.${i}.filter.webhook_ids.${j}`;
      const webhook = deps.webhooks.get(uid);
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

function assertEditable(deps: FullServiceDeps, factoryId: string, name: string): void {
  if (deps.factories.get(factoryId)?.definitionsDir) {
    throw new ApiError(
      'conflict',
      `Factory "${factoryId}" is managed by definition files: edit automations/${name}.md instead.`,
    );
  }
}

function assertNameFree(
  deps: FullServiceDeps,
  factoryId: string,
  name: string,
  self?: string,
): void {
  if (deps.automations.list(factoryId).some((a) => a.name === name && a.id !== self)) {
    throw new ApiError('conflict', `name: an automation named "${name}" already exists`, 'name');
  }
}

export function automationHandlers(deps: FullServiceDeps): AutomationHandlers {
  const requireAutomation = (id: string): AutomationRecord => {
    const automation = deps.automations.get(id);
    if (!automation) throw new ApiError('not_found', `No automation ${id}.`);
    return automation;
  };
  const changed = (): void => {
    deps.automationIndex.reload();
    deps.events.emit({ type: 'changed', resource: 'automations' });
  };

  return {
    'automations.list': ({ factory }) => {
      requireFactory(deps, factory);
      const items = deps.automations.list(factory).map((a) => automationJson(a, deps));
      return Promise.resolve({ items });
    },

    'automations.get': ({ id }) => Promise.resolve(automationJson(requireAutomation(id), deps)),

    'automations.create': (input) =>
      deps.writes.run(() => {
        const factory = requireFactory(deps, input.factory);
        assertEditable(deps, factory.id, input.name);
        assertNameFree(deps, factory.id, input.name);
        assertWebhooksExist(deps, factory.id, input.triggers);
        assertHeaderFiltersAllowed(deps, input.triggers);
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
        deps.automations.insert(record);
        changed();
        return automationJson(record, deps);
      }),

    'automations.update': ({ id, ...changes }) =>
      deps.writes.run(() => {
        const current = requireAutomation(id);
        assertEditable(deps, current.factoryId, current.name);
        if (changes.name !== undefined) assertNameFree(deps, current.factoryId, changes.name, id);
        if (changes.triggers !== undefined) {
          assertWebhooksExist(deps, current.factoryId, changes.triggers);
          assertHeaderFiltersAllowed(deps, changes.triggers);
        }
        const updated: AutomationRecord = {
          ...current,
          name: changes.name ?? current.name,
          prompt: changes.prompt ?? current.prompt,
          enabled: changes.enabled ?? current.enabled,
          triggers: changes.triggers ?? current.triggers,
          updatedAt: deps.now(),
        };
        deps.automations.update(updated);
        changed();
        return automationJson(updated, deps);
      }),

    'automations.delete': ({ id }) =>
      deps.writes.run(() => {
        const current = requireAutomation(id);
        assertEditable(deps, current.factoryId, current.name);
        // Queued runs would have no executor to go to once the automation is gone.
        const cancelled = deps.runs.failQueuedOf(
          id,
          'the automation was deleted before this run started',
          deps.now(),
        );
        deps.automations.remove(id);
        changed();
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
