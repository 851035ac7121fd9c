import { evaluateFilter, evaluateHeaderFilter } from '../../shared/filter/index.js';
import type { DeliverySeen } from '../ingress/ingress-deps.js';
import type { PlannedRun } from '../store/delivery-batch.js';
import type { AutomationRecord, AutomationsRepository } from '../store/automations.js';
import type { WebhookRecord } from '../store/webhooks.js';
import { buildRunInput } from '../runs/run-input.js';
import { SerialQueue } from '../service/serial-queue.js';

/**
 * Enabled automations by the live webhook UIDs their triggers select, held in memory so that
 * planning runs on the accept path costs a map lookup plus the filters of those automations.
 * Reloaded after every automation write and every webhook change (a deleted webhook fires nothing).
 */
export class AutomationIndex {
  private byWebhook = new Map<string, AutomationRecord[]>();
  /**
   * Reloads take turns, so each answers only once the index holds what it read: one that
   * overlapped a later one used to be dropped and answer before the later one had replaced it.
   */
  private readonly turns = new SerialQueue();

  private constructor(
    private readonly repo: AutomationsRepository,
    private readonly liveWebhookUids: () => Promise<Iterable<string>>,
  ) {}

  static async load(
    repo: AutomationsRepository,
    liveWebhookUids: () => Promise<Iterable<string>>,
  ): Promise<AutomationIndex> {
    const index = new AutomationIndex(repo, liveWebhookUids);
    await index.reload();
    return index;
  }

  reload(): Promise<void> {
    return this.turns.run(() => this.reloadNow());
  }

  private async reloadNow(): Promise<void> {
    const live = new Set(await this.liveWebhookUids());
    const automations = await this.repo.all();
    const index = new Map<string, AutomationRecord[]>();
    for (const automation of automations) {
      if (!automation.enabled) continue;
      const uids = new Set(automation.triggers.flatMap((t) => t.filter.webhook_ids));
      for (const uid of uids) {
        if (!live.has(uid)) continue;
        const list = index.get(uid) ?? [];
        list.push(automation);
        index.set(uid, list);
      }
    }
    this.byWebhook = index;
  }

  /** Whether any enabled automation has a trigger selecting the webhook. */
  selects(webhookUid: string): boolean {
    return this.byWebhook.has(webhookUid);
  }

  /**
   * One run per automation that has at least one trigger selecting the webhook whose payload
   * and header filters both match.
   */
  plan(
    webhook: WebhookRecord,
    deliveryId: string,
    payload: unknown,
    newRunId: () => string,
    seen: DeliverySeen,
  ): PlannedRun[] {
    const candidates = this.byWebhook.get(webhook.uid);
    if (!candidates) return [];
    const runs: PlannedRun[] = [];
    for (const automation of candidates) {
      const fires = automation.triggers.some(
        (t) =>
          t.filter.webhook_ids.includes(webhook.uid) &&
          evaluateFilter(t.filter.payload, payload).matched &&
          evaluateHeaderFilter(t.filter.headers, seen.headers).matched,
      );
      if (fires) {
        runs.push({
          id: newRunId(),
          automationId: automation.id,
          input: buildRunInput(automation.prompt, webhook, deliveryId, seen.eventType),
        });
      }
    }
    return runs;
  }
}
