import { URL_SAFE_SECRET } from '../../shared/contract/webhooks.js';
import { ApiError } from '../../shared/errors.js';
import type { TeamSecrets } from '../secrets/team-secrets.js';
import { assertUsableSigningSecret } from '../service/webhook-secrets.js';
import type { AutomationRecord } from '../store/automations.js';
import type { LinkRecord } from '../store/links.js';
import type { WebhookRecord } from '../store/webhooks.js';
import type { AutomationDefinition, WebhookDefinition } from './formats.js';
import { linkChanged, linkSecretProblem } from './link-definition.js';
import { DefinitionError, type DefinitionProblem } from './problems.js';
import type { DesiredState } from './read.js';
import { checkTriggers } from './trigger-checks.js';

export type PlanAction = 'create' | 'update' | 'delete' | 'unchanged';

/** One line of the plan an operator reads before (or instead of) applying. */
export interface PlanItem {
  kind: 'webhook' | 'automation';
  name: string;
  file: string | null;
  action: PlanAction;
  /** The webhook's UID or the automation's id, when it already has one. */
  id: string | null;
  changes: string[];
  note: string | null;
}

export interface Plan {
  items: PlanItem[];
  ignored: string[];
  webhooks: {
    create: WebhookDefinition[];
    update: Array<{ current: WebhookRecord; next: WebhookDefinition }>;
    remove: WebhookRecord[];
  };
  automations: {
    create: AutomationDefinition[];
    update: Array<{ current: AutomationRecord; next: AutomationDefinition }>;
    remove: AutomationRecord[];
  };
  /** Every team secret the definitions reference (re-read from the store on apply). */
  secretNames: string[];
  /** Sentences naming the automations that stop firing (seed §3), for the plan and apply output. */
  warnings: string[];
}

export interface CurrentState {
  factoryId: string;
  webhooks: WebhookRecord[];
  automations: AutomationRecord[];
  secrets: Pick<TeamSecrets, 'cachedValue'>;
  /** The names of the factory's team secrets. */
  secretNames: ReadonlySet<string>;
  webhookLimit: number;
  /** Whether the factory already follows a directory: without one, nothing had a file to lose. */
  managed: boolean;
  /** Any webhook this relay ever had, deleted ones included (triggers may still name them). */
  everWebhook: (uid: string) => WebhookRecord | null;
  /** The provider links of the factory's webhooks, by UID (PRODUCT §19). */
  links?: ReadonlyMap<string, LinkRecord>;
}

function webhookChanges(
  current: WebhookRecord,
  next: WebhookDefinition,
  link: LinkRecord | null,
): string[] {
  const fields: Array<[string, unknown, unknown]> = [
    ['authMode', current.authMode, next.authMode],
    ['signatureScheme', current.signatureScheme, next.signatureScheme ?? null],
    [
      'signatureOptions',
      JSON.stringify(current.signatureOptions),
      JSON.stringify(next.signatureOptions ?? null),
    ],
    ['secretName', current.secretName, next.secretName],
    ['deliveryIdHeader', current.deliveryIdHeader, next.deliveryIdHeader ?? null],
    ['eventTypePath', current.eventTypePath, next.eventTypePath ?? null],
    ['enabled', current.enabled, next.enabled],
  ];
  const changed = fields.filter(([, a, b]) => a !== b).map(([field]) => field);
  return linkChanged(link, next.link) ? [...changed, 'link'] : changed;
}

function automationChanges(current: AutomationRecord, next: AutomationDefinition): string[] {
  const fields: Array<[string, unknown, unknown]> = [
    ['prompt', current.prompt, next.prompt],
    ['enabled', current.enabled, next.enabled],
    ['triggers', JSON.stringify(current.triggers), JSON.stringify(next.triggers)],
    ['file', current.sourceFile, next.file],
  ];
  return fields.filter(([, a, b]) => a !== b).map(([field]) => field);
}

function checkSecret(
  def: WebhookDefinition,
  state: CurrentState,
  problems: DefinitionProblem[],
): void {
  const at = { file: def.file, line: def.lineOf(['secretName']), key: 'secretName' };
  if (!state.secretNames.has(def.secretName)) {
    problems.push({
      ...at,
      message: `no team secret named "${def.secretName}"; create it first (POST /api/secrets)`,
    });
    return;
  }
  const value = state.secrets.cachedValue(state.factoryId, def.secretName);
  if (value === undefined) return;
  if (def.authMode === 'url_token' && !URL_SAFE_SECRET.test(value)) {
    problems.push({
      ...at,
      message: `"${def.secretName}" is not URL-safe, so it cannot be a url_token (16+ of A–Z a–z 0–9 . _ ~ -)`,
    });
  }
  if (def.authMode === 'signature' && def.signatureScheme) {
    try {
      assertUsableSigningSecret(
        def.signatureScheme,
        def.signatureOptions ?? null,
        value,
        'secretName',
      );
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      problems.push({ ...at, message: error.message.replace(/^secretName: /, '') });
    }
  }
}

/** Compares what the files ask for with the factory's state; throws naming file:line:key on any problem. */
export function planDefinitions(desired: DesiredState, state: CurrentState): Plan {
  const problems: DefinitionProblem[] = [];
  const items: PlanItem[] = [];
  const plan: Plan = {
    items,
    ignored: desired.ignored,
    webhooks: { create: [], update: [], remove: [] },
    automations: { create: [], update: [], remove: [] },
    secretNames: [...new Set(desired.webhooks.map((w) => w.secretName))],
    warnings: [],
  };

  const wantedWebhooks = new Set(desired.webhooks.map((w) => w.name));
  if (desired.webhooks.length > state.webhookLimit) {
    problems.push({
      file: 'webhooks/',
      line: null,
      key: null,
      message: `defines ${desired.webhooks.length} webhooks; a factory may have at most ${state.webhookLimit}`,
    });
  }
  for (const def of desired.webhooks) {
    checkSecret(def, state, problems);
    const linkProblem = linkSecretProblem(
      def.link,
      def.file,
      def.lineOf(['link', 'tokenSecretName']),
      state.secretNames,
    );
    if (linkProblem) problems.push(linkProblem);
  }
  compareByName(items, plan.webhooks, {
    kind: 'webhook',
    desired: desired.webhooks,
    current: state.webhooks,
    idOf: (current) => current.uid,
    changesOf: (current, def) =>
      webhookChanges(current, def, state.links?.get(current.uid) ?? null),
    deleteNote: (current) => {
      const renamedTo = plan.webhooks.create.find(
        (d) =>
          d.authMode === current.authMode &&
          d.secretName === current.secretName &&
          (d.signatureScheme ?? null) === current.signatureScheme,
      );
      return renamedTo
        ? `looks renamed to ${renamedTo.file}: a rename is a delete plus a create, so senders must move to the new UID; this URL answers 404 at once`
        : state.managed
          ? 'its file is gone; its URL answers 404 at once'
          : 'not defined in the directory, so the managed factory drops it; its URL answers 404 at once';
    },
  });

  const nextByName = new Map(desired.webhooks.map((d) => [d.name, d]));
  const liveAfter = new Map(
    state.webhooks
      .filter((w) => wantedWebhooks.has(w.name))
      .map((w) => [w.uid, { record: w, next: nextByName.get(w.name)! }]),
  );
  const removed = new Map(plan.webhooks.remove.map((w) => [w.uid, w.name]));
  const targets = { factoryId: state.factoryId, liveAfter, removed, ever: state.everWebhook };
  for (const def of desired.automations) checkTriggers(def, targets, problems, plan.warnings);
  compareByName(items, plan.automations, {
    kind: 'automation',
    desired: desired.automations,
    current: state.automations,
    idOf: (current) => current.id,
    changesOf: automationChanges,
    deleteNote: () =>
      state.managed
        ? 'its file is gone; its queued runs fail'
        : 'not defined in the directory, so the managed factory drops it; its queued runs fail',
  });
  noteStoppedAutomations(items, desired.automations);
  if (problems.length > 0) throw new DefinitionError(problems);
  return plan;
}

/** How one kind's definitions compare with the factory's records of it. */
interface Comparison<Def, Rec> {
  kind: PlanItem['kind'];
  desired: readonly Def[];
  current: readonly Rec[];
  idOf: (current: Rec) => string;
  changesOf: (current: Rec, next: Def) => string[];
  /** Asked once every creation is known (a deleted webhook may look renamed to one). */
  deleteNote: (current: Rec) => string;
}

/**
 * Definitions and records are matched by name: a definition without a record is created, one
 * whose fields differ is updated, and a record without a definition is deleted.
 */
function compareByName<Def extends { name: string; file: string }, Rec extends { name: string }>(
  items: PlanItem[],
  bucket: { create: Def[]; update: Array<{ current: Rec; next: Def }>; remove: Rec[] },
  { kind, desired, current, idOf, changesOf, deleteNote }: Comparison<Def, Rec>,
): void {
  const byName = new Map(current.map((record) => [record.name, record]));
  for (const def of desired) {
    const record = byName.get(def.name);
    const changes = record ? changesOf(record, def) : [];
    if (!record) bucket.create.push(def);
    else if (changes.length > 0) bucket.update.push({ current: record, next: def });
    const action = !record ? 'create' : changes.length > 0 ? 'update' : 'unchanged';
    const id = record ? idOf(record) : null;
    items.push({ kind, name: def.name, file: def.file, action, id, changes, note: null });
  }
  const wanted = new Set(desired.map((def) => def.name));
  const gone = current.filter((record) => !wanted.has(record.name));
  bucket.remove.push(...gone);
  for (const record of gone) {
    const at = { kind, name: record.name, file: null, action: 'delete' as const };
    items.push({ ...at, id: idOf(record), changes: [], note: deleteNote(record) });
  }
}

/** A deleted webhook's plan line names the automations that stop firing for it (seed §3). */
function noteStoppedAutomations(
  items: PlanItem[],
  automations: readonly AutomationDefinition[],
): void {
  for (const item of items) {
    if (item.kind !== 'webhook' || item.action !== 'delete' || item.id === null) continue;
    const uid = item.id;
    const stopping = automations
      .filter((a) => a.triggers.some((t) => t.filter.webhook_ids.includes(uid)))
      .map((a) => a.name);
    if (stopping.length === 0) continue;
    const which = stopping.map((name) => `"${name}"`).join(', ');
    const sentence = `${stopping.length === 1 ? 'automation' : 'automations'} ${which} will stop firing for it`;
    item.note = item.note ? `${item.note}; ${sentence}` : sentence;
  }
}
