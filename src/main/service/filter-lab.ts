import { FIELDS_MAX, type FilterMatch } from '../../shared/contract/filter-lab.js';
import type { WebhookTrigger } from '../../shared/contract/triggers.js';
import { ApiError } from '../../shared/errors.js';
import {
  describeFailure,
  evaluateFilter,
  evaluateHeaderFilter,
  headerValuesFromPairs,
} from '../../shared/filter/index.js';
import { SeenFields } from '../automations/seen-fields.js';
import { parseJsonBody } from '../ingress/steps/parse-json.js';
import type { RequestContext } from '../store/delivery-batch.js';
import type { StoredPayload } from '../store/scans.js';
import type { FullServiceDeps } from './automation-deps.js';
import { assertHeaderFiltersAllowed } from './automations.js';
import type { ServiceHandlers } from './handlers.js';
import { TimeSlicer } from './time-slicer.js';
import { webhookCheckFor, type WebhookCheck } from './test-filter.js';
import { iso } from './to-json.js';

/** Whether the trigger's header filter holds for the stored request; a reason when not. */
async function headerMiss(
  trigger: WebhookTrigger,
  request: () => Promise<RequestContext | null>,
): Promise<string | null> {
  const filter = trigger.filter.headers;
  if (!filter || Object.keys(filter).length === 0) return null;
  const stored = await request();
  if (!stored) return 'headers: not recorded for this delivery (it came before they were kept)';
  const verdict = evaluateHeaderFilter(filter, headerValuesFromPairs(stored.headers));
  return verdict.matched ? null : `headers: ${describeFailure(verdict.failure)}`;
}

/** One stored delivery through the trigger, as Test filter would judge it, in a line. */
async function judge(
  trigger: WebhookTrigger,
  entry: StoredPayload,
  webhookCheck: WebhookCheck,
  request: () => Promise<RequestContext | null>,
): Promise<FilterMatch> {
  const base = {
    deliveryId: entry.id,
    webhookUid: entry.webhookUid,
    receivedAt: iso(entry.receivedAt),
    eventType: entry.eventType,
  };
  const no = (detail: string): FilterMatch => ({ ...base, verdict: 'Would not trigger', detail });
  if (!webhookCheck.passed) return no(`webhook: ${webhookCheck.detail}`);
  const parsed = parseJsonBody(entry.body);
  if (!parsed.ok) return no(`stored payload: ${parsed.reason}`);
  const verdict = evaluateFilter(trigger.filter.payload, parsed.value);
  if (!verdict.matched) return no(describeFailure(verdict.failure));
  const headers = await headerMiss(trigger, request);
  return headers === null ? { ...base, verdict: 'Would trigger', detail: null } : no(headers);
}

/** Payloads read at a time: a page of 256 KB bodies is a few megabytes and milliseconds. */
const PAGE = 16;

/**
 * The newest `limit` stored payloads of these webhooks, newest first, a page at a time, with the
 * event loop let turn between items (`slicer`): a sender is answered while the lab reads.
 */
async function* newestPayloads(
  deps: FullServiceDeps,
  webhookUids: readonly string[],
  limit: number,
  slicer: TimeSlicer,
): AsyncGenerator<StoredPayload> {
  let left = limit;
  let before: string | undefined;
  while (left > 0) {
    const page = await deps.scans.newestPayloads(webhookUids, Math.min(PAGE, left), before);
    if (page.length === 0) return;
    for (const entry of page) {
      await slicer.turn();
      yield entry;
    }
    left -= page.length;
    before = page.at(-1)!.id;
  }
}

/**
 * The filter lab: a trigger (saved or not) against the newest stored payloads of its webhooks,
 * and the paths those payloads hold, for the editor's counts, list and autocomplete.
 */
export function filterLabHandlers(
  deps: FullServiceDeps,
): Pick<ServiceHandlers, 'automations.filterMatches' | 'webhooks.fields'> {
  return {
    'automations.filterMatches': async ({ trigger, limit }) => {
      await assertHeaderFiltersAllowed(deps, [trigger], () => 'trigger');
      const checks = new Map<string, WebhookCheck>();
      for (const uid of trigger.filter.webhook_ids)
        checks.set(uid, await webhookCheckFor(deps, trigger, uid));
      const items: FilterMatch[] = [];
      const slicer = new TimeSlicer();
      for await (const entry of newestPayloads(deps, trigger.filter.webhook_ids, limit, slicer)) {
        items.push(
          await judge(trigger, entry, checks.get(entry.webhookUid)!, () =>
            deps.deliveries.requestContext(entry.id),
          ),
        );
      }
      return {
        scanned: items.length,
        matched: items.filter((item) => item.verdict === 'Would trigger').length,
        items,
      };
    },

    'webhooks.fields': async ({ uid, limit }) => {
      if (!(await deps.webhooks.get(uid))) throw new ApiError('not_found', `No webhook ${uid}.`);
      const fields = new SeenFields(FIELDS_MAX);
      let scanned = 0;
      for await (const entry of newestPayloads(deps, [uid], limit, new TimeSlicer())) {
        scanned++;
        const parsed = parseJsonBody(entry.body);
        if (parsed.ok) fields.add(parsed.value);
      }
      return { scanned, ...fields.result() };
    },
  };
}
