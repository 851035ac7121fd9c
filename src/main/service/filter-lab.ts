import { FIELDS_MAX, type FilterMatch } from '../../shared/contract/filter-lab.js';
import type { WebhookTrigger } from '../../shared/contract/triggers.js';
import { ApiError } from '../../shared/errors.js';
import { describeFailure, evaluateFilter } from '../../shared/filter/index.js';
import { SeenFields } from '../automations/seen-fields.js';
import { parseJsonBody } from '../ingress/steps/parse-json.js';
import type { StoredPayload } from '../store/delivery-scans.js';
import type { FullServiceDeps } from './automation-deps.js';
import type { ServiceHandlers } from './handlers.js';
import { webhookCheckFor, type WebhookCheck } from './test-filter.js';
import { iso } from './to-json.js';

/** One stored delivery through the trigger, as Test filter would judge it, in a line. */
function judge(
  trigger: WebhookTrigger,
  entry: StoredPayload,
  webhookCheck: WebhookCheck,
): FilterMatch {
  const base = {
    deliveryId: entry.id,
    webhookUid: entry.webhookUid,
    receivedAt: iso(entry.receivedAt),
    eventType: entry.eventType,
  };
  if (!webhookCheck.passed) {
    return { ...base, verdict: 'Would not trigger', detail: `webhook: ${webhookCheck.detail}` };
  }
  const parsed = parseJsonBody(entry.body);
  if (!parsed.ok) {
    return { ...base, verdict: 'Would not trigger', detail: `stored payload: ${parsed.reason}` };
  }
  const verdict = evaluateFilter(trigger.filter.payload, parsed.value);
  return verdict.matched
    ? { ...base, verdict: 'Would trigger', detail: null }
    : { ...base, verdict: 'Would not trigger', detail: describeFailure(verdict.failure) };
}

/**
 * The filter lab: a trigger (saved or not) against the newest stored payloads of its webhooks,
 * and the paths those payloads hold, for the editor's counts, list and autocomplete.
 */
export function filterLabHandlers(
  deps: FullServiceDeps,
): Pick<ServiceHandlers, 'automations.filterMatches' | 'webhooks.fields'> {
  return {
    'automations.filterMatches': ({ trigger, limit }) => {
      const checks = new Map(
        trigger.filter.webhook_ids.map((uid) => [uid, webhookCheckFor(deps, trigger, uid)]),
      );
      const items = deps.scans
        .newestPayloads(trigger.filter.webhook_ids, limit)
        .map((entry) => judge(trigger, entry, checks.get(entry.webhookUid)!));
      return Promise.resolve({
        scanned: items.length,
        matched: items.filter((item) => item.verdict === 'Would trigger').length,
        items,
      });
    },

    'webhooks.fields': ({ uid, limit }) => {
      if (!deps.webhooks.get(uid)) throw new ApiError('not_found', `No webhook ${uid}.`);
      const fields = new SeenFields(FIELDS_MAX);
      const payloads = deps.scans.newestPayloads([uid], limit);
      for (const entry of payloads) {
        const parsed = parseJsonBody(entry.body);
        if (parsed.ok) fields.add(parsed.value);
      }
      return Promise.resolve({ scanned: payloads.length, ...fields.result() });
    },
  };
}
