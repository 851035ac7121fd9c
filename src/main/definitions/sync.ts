import { isAbsolute, resolve } from 'node:path';
import { ApiError } from '../../shared/errors.js';
import type { EventBus } from '../events.js';
import type { OnChanged } from '../core/on-changed.js';
import { describeError, type Logger } from '../log.js';
import type { TeamSecrets } from '../secrets/team-secrets.js';
import type { SerialQueue } from '../service/serial-queue.js';
import type { SharedResource } from '../store/store-peers.js';
import type { Store } from '../store/store.js';
import type { WebhookRecord } from '../store/webhooks.js';
import { applyPlan } from './apply.js';
import { planDefinitions, type PlanItem } from './plan.js';
import { DefinitionError, problemPath } from './problems.js';
import { readDefinitions } from './read.js';
import { whenExclusive } from '../store/exclusive.js';
import { watchDefinitions } from './watch.js';

export interface DefinitionSyncDeps {
  store: Store;
  secrets: TeamSecrets;
  events: EventBus;
  /** What an apply changed reloads through the same table as a management write. */
  onChanged: OnChanged;
  writes: SerialQueue;
  webhookLimit: number;
  log: Logger;
  now: () => number;
  /** Told the webhooks whose file added or changed a provider link (the keeper points them). */
  onLinked?: (webhookUids: string[]) => void;
}

export interface SyncResult {
  factory: string;
  definitionsDir: string;
  applied: boolean;
  items: PlanItem[];
  ignored: string[];
  /** Automations that stop firing (their webhook is deleted), named (seed §3). */
  warnings: string[];
}

/**
 * Makes a managed factory match its definition directory: read, plan, apply in one transaction,
 * then refresh what the ingress holds in memory. Also watches each managed factory's directory.
 */
export class DefinitionSync {
  private readonly watchers = new Map<string, { dir: string; close(): Promise<void> }>();

  constructor(private readonly deps: DefinitionSyncDeps) {}

  /** Queued behind other management writes. `dir` (absolute) points the factory at a directory. */
  sync(factoryId: string, options: { dir?: string; dryRun?: boolean } = {}): Promise<SyncResult> {
    return this.deps.writes.run(() => this.syncNow(factoryId, options));
  }

  /** For callers already inside the write queue (the management service's own writes). */
  syncNow(factoryId: string, options: { dir?: string; dryRun?: boolean }): Promise<SyncResult> {
    if (options.dryRun) return this.syncUnlocked(factoryId, options);
    // Relays sharing a store apply one at a time; the later ones find nothing left to change.
    return whenExclusive(this.deps.store, 'definition-sync', () =>
      this.syncUnlocked(factoryId, options),
    );
  }

  private async syncUnlocked(
    factoryId: string,
    { dir, dryRun = false }: { dir?: string; dryRun?: boolean },
  ): Promise<SyncResult> {
    const { store } = this.deps;
    const factory = await store.factories.get(factoryId);
    if (!factory) throw new ApiError('not_found', `No factory "${factoryId}".`);
    if (dir !== undefined && !isAbsolute(dir)) {
      throw new ApiError(
        'invalid_input',
        'dir: must be an absolute path on the relay’s machine',
        'dir',
      );
    }
    const target = dir ?? factory.definitionsDir;
    if (!target) {
      throw new ApiError(
        'invalid_input',
        `Factory "${factoryId}" has no definition directory; send {"dir": "/absolute/path"}.`,
        'dir',
      );
    }
    const definitionsDir = resolve(target);
    try {
      const desired = readDefinitions(definitionsDir);
      // Rotated managed secrets are picked up here, before the checks that read their values.
      const rotated = await this.deps.secrets.refresh(factoryId, [
        ...new Set(desired.webhooks.map((w) => w.secretName)),
      ]);
      // Any webhook a trigger names, deleted ones included: the plan reads them without waiting.
      const named = new Map<string, WebhookRecord | null>();
      for (const automation of desired.automations)
        for (const trigger of automation.triggers)
          for (const uid of trigger.filter.webhook_ids)
            if (!named.has(uid)) named.set(uid, await store.webhooks.get(uid));
      const webhooks = await store.webhooks.list(factoryId);
      const uids = new Set(webhooks.map((w) => w.uid));
      const links = new Map(
        (await store.links.live())
          .filter((l) => uids.has(l.webhookUid))
          .map((l) => [l.webhookUid, l]),
      );
      const state = {
        factoryId,
        webhooks,
        links,
        automations: await store.automations.list(factoryId),
        secrets: this.deps.secrets,
        secretNames: new Set((await this.deps.secrets.list(factoryId)).map((s) => s.name)),
        webhookLimit: this.deps.webhookLimit,
        managed: factory.definitionsDir !== null,
        everWebhook: (uid: string) => named.get(uid) ?? null,
      };
      const plan = planDefinitions(desired, state);
      const result: SyncResult = {
        factory: factoryId,
        definitionsDir,
        applied: false,
        items: plan.items,
        ignored: plan.ignored,
        warnings: plan.warnings,
      };
      if (dryRun) return result;
      const applied = await applyPlan(plan, factoryId, definitionsDir, this.deps);
      for (const item of plan.items)
        if (item.action === 'create' && item.kind === 'webhook')
          item.id = applied.created.get(item.name) ?? null;
      await this.afterApply(factoryId, applied.failedRuns, rotated, plan.items, plan.warnings);
      if (applied.linked.length > 0) this.deps.onLinked?.(applied.linked);
      // The factory is managed now (or by another directory): pages that show it reload.
      if (factory.definitionsDir !== definitionsDir) await this.deps.onChanged('settings');
      // Watched before the answer goes out, so an edit right after this apply is never missed.
      this.watch(factoryId, definitionsDir);
      return { ...result, applied: true };
    } catch (error) {
      if (error instanceof DefinitionError) {
        const first = error.problems[0];
        throw new ApiError('invalid_input', error.message, first ? problemPath(first) : undefined);
      }
      throw error;
    }
  }

  /** Starts watching every managed factory's directory (at start-up). */
  async watchManaged(): Promise<void> {
    for (const factory of await this.deps.store.factories.all())
      if (factory.definitionsDir) this.watch(factory.id, factory.definitionsDir);
  }

  async close(): Promise<void> {
    await Promise.all([...this.watchers.values()].map((w) => w.close()));
    this.watchers.clear();
  }

  private async afterApply(
    factoryId: string,
    failedRuns: Array<{ id: string; automationId: string; deliveryId: string }>,
    rotated: string[],
    items: PlanItem[],
    warnings: string[],
  ): Promise<void> {
    const changed = items.filter((i) => i.action !== 'unchanged');
    const resources: SharedResource[] = [];
    if (changed.some((i) => i.kind === 'webhook')) resources.push('webhooks');
    if (changed.some((i) => i.kind === 'automation')) resources.push('automations');
    if (rotated.length > 0) resources.push('secrets');
    await this.deps.onChanged(resources);
    for (const run of failedRuns) {
      this.deps.events.emit({
        type: 'run',
        run: {
          id: run.id,
          automationId: run.automationId,
          deliveryId: run.deliveryId,
          status: 'failed',
        },
      });
    }
    if (changed.length > 0 || rotated.length > 0) {
      const summary = changed.map(
        (i) => `${i.action} ${i.kind} ${i.name}${i.note ? ` (${i.note})` : ''}`,
      );
      if (rotated.length > 0) summary.push(`picked up rotated secret(s) ${rotated.join(', ')}`);
      for (const warning of warnings) summary.push(`warning: ${warning}`);
      this.deps.log.info(`[definitions] ${factoryId}: ${summary.join('; ')}`);
    }
  }

  private watch(factoryId: string, dir: string): void {
    const current = this.watchers.get(factoryId);
    if (current?.dir === dir) return;
    void current?.close();
    const watcher = watchDefinitions(dir, () => {
      this.sync(factoryId).catch((error: unknown) => {
        // The last good state stays in force; the operator reads what to fix here.
        this.deps.log.error(
          `[definitions] ${dir} was not applied:\n${error instanceof ApiError ? error.message : describeError(error)}`,
        );
      });
    });
    this.watchers.set(factoryId, { dir, close: () => watcher.close() });
  }
}
