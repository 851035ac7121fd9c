import type { Automation } from '../../../shared/contract/automations.js';
import type { WebhookTrigger } from '../../../shared/contract/triggers.js';
import { checkFilterText, filterToText, type FilterCheck } from './filter-text.js';

export interface TriggerDraft {
  /** Stable across edits so React keeps each card's state when one is removed. */
  key: number;
  webhookIds: string[];
  /** The payload filter as typed. */
  filterText: string;
  /** The header filter as typed (§13). */
  headerText: string;
}

/** Both filters of a trigger, as checked while typing. */
export interface TriggerCheck {
  payload: FilterCheck;
  headers: FilterCheck;
}

export const checkTrigger = (trigger: TriggerDraft): TriggerCheck => ({
  payload: checkFilterText(trigger.filterText),
  headers: checkFilterText(trigger.headerText, 'headers'),
});

/** "payload filter" or "header filter": the first of a trigger's filters that does not validate. */
export function blockingFilter(check: TriggerCheck): string | null {
  if (!check.payload.ok) return 'payload filter';
  if (!check.headers.ok) return 'header filter';
  return null;
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
  return { key: nextKey++, webhookIds, filterText: '', headerText: '' };
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
      headerText: filterToText(t.filter.headers),
    })),
  };
}

/** The trigger as the contract spells it; null while one of its filters does not validate. */
export function toTrigger(trigger: TriggerDraft, check: TriggerCheck): WebhookTrigger | null {
  if (!check.payload.ok || !check.headers.ok) return null;
  // Keys in the contract's order, so an unchanged trigger compares equal to the saved one.
  return {
    provider: 'webhook',
    event: 'received',
    filter: {
      webhook_ids: trigger.webhookIds,
      ...(check.payload.filter === undefined ? {} : { payload: check.payload.filter }),
      ...(check.headers.filter === undefined ? {} : { headers: check.headers.filter }),
    },
  };
}

export interface BuiltDraft {
  input: { name: string; prompt: string; enabled: boolean; triggers: WebhookTrigger[] } | null;
  checks: TriggerCheck[];
  /** "trigger 2": the first trigger whose filters block saving. */
  blockedBy: number | null;
}

export function buildDraft(draft: Draft): BuiltDraft {
  const checks = draft.triggers.map(checkTrigger);
  const triggers = draft.triggers.map((t, i) => toTrigger(t, checks[i]!));
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
