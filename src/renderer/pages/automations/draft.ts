import type { Automation } from '../../../shared/contract/automations.js';
import type { WebhookTrigger } from '../../../shared/contract/triggers.js';
import { checkFilterText, filterToText, type FilterCheck } from './filter-text.js';

export interface TriggerDraft {
  /** Stable across edits so React keeps each card's state when one is removed. */
  key: number;
  webhookIds: string[];
  filterText: string;
}

export interface Draft {
  name: string;
  prompt: string;
  enabled: boolean;
  triggers: TriggerDraft[];
}

export const MAX_TRIGGERS = 20;

let nextKey = 1;

export function newTrigger(webhookIds: string[] = []): TriggerDraft {
  return { key: nextKey++, webhookIds, filterText: '' };
}

export function toDraft(automation: Automation | undefined): Draft {
  if (!automation) return { name: '', prompt: '', enabled: true, triggers: [newTrigger()] };
  return {
    name: automation.name,
    prompt: automation.prompt,
    enabled: automation.enabled,
    triggers: automation.triggers.map((t) => ({
      key: nextKey++,
      webhookIds: [...t.filter.webhook_ids],
      filterText: filterToText(t.filter.payload),
    })),
  };
}

/** The trigger as the contract spells it; null while its payload filter does not validate. */
export function toTrigger(trigger: TriggerDraft, check: FilterCheck): WebhookTrigger | null {
  if (!check.ok) return null;
  return {
    provider: 'webhook',
    event: 'received',
    filter: {
      webhook_ids: trigger.webhookIds,
      ...(check.filter === undefined ? {} : { payload: check.filter }),
    },
  };
}

export interface BuiltDraft {
  input: { name: string; prompt: string; enabled: boolean; triggers: WebhookTrigger[] } | null;
  checks: FilterCheck[];
  /** "trigger 2": the first trigger whose payload filter blocks saving. */
  blockedBy: number | null;
}

export function buildDraft(draft: Draft): BuiltDraft {
  const checks = draft.triggers.map((t) => checkFilterText(t.filterText));
  const triggers = draft.triggers.map((t, i) =>
    toTrigger(t, checks[i] ?? { ok: false, message: '', range: null }),
  );
  const bad = triggers.findIndex((t) => t === null);
  if (bad >= 0) return { input: null, checks, blockedBy: bad };
  return {
    input: {
      name: draft.name.trim(),
      prompt: draft.prompt,
      enabled: draft.enabled,
      triggers: triggers.filter((t): t is WebhookTrigger => t !== null),
    },
    checks,
    blockedBy: null,
  };
}

/** Whether saving would change the saved automation (whitespace in a filter is no change). */
export function isDirty(built: BuiltDraft, saved: Automation): boolean {
  if (!built.input) return true;
  const { name, prompt, enabled, triggers } = saved;
  return JSON.stringify(built.input) !== JSON.stringify({ name, prompt, enabled, triggers });
}

/** "triggers.1.filter.payload…" → 1: which card a server error belongs to. */
export function triggerIndexOf(path: string | undefined): number | null {
  const match = /^triggers\.(\d+)(?:\.|$)/.exec(path ?? '');
  return match ? Number(match[1]) : null;
}
