import { ApiError } from '../../shared/errors.js';
import { headerValuesFromPairs } from '../../shared/filter/index.js';
import { checkHeaders, checkPayload, verdictOf } from '../automations/payload-check.js';
import { parseJsonBody } from '../ingress/steps/parse-json.js';
import type { WebhookTrigger } from '../../shared/contract/triggers.js';
import type { DeliveryRecord } from '../store/deliveries.js';
import type { FullServiceDeps } from './automation-deps.js';
import { assertHeaderFiltersAllowed } from './automations.js';
import type { ServiceHandlers } from './handlers.js';

/**
 * Only Accepted entries keep a payload (seed §2.2). The message says what to use instead:
 * a duplicate's original, or another delivery.
 */
export async function requireStoredPayload(
  deps: FullServiceDeps,
  id: string,
): Promise<{
  delivery: DeliveryRecord;
  body: Buffer;
}> {
  const delivery = await deps.deliveries.get(id);
  if (!delivery) throw new ApiError('not_found', `No delivery ${id}; it may have been pruned.`);
  if (delivery.label !== 'Accepted') {
    const instead = delivery.duplicateOf
      ? `use the original, ${delivery.duplicateOf}`
      : 'pick an Accepted delivery';
    throw new ApiError(
      'conflict',
      `${id} is "${delivery.label}": only Accepted deliveries keep a payload; ${instead}.`,
      'deliveryId',
    );
  }
  const body = await deps.deliveries.payload(id);
  if (!body) throw new ApiError('conflict', `The payload of ${id} is no longer stored.`);
  return { delivery, body };
}

export type WebhookCheck = { passed: boolean; detail: string };

/** Does the trigger select the delivery's webhook, and can that webhook still fire? */
export async function webhookCheckFor(
  deps: Pick<FullServiceDeps, 'webhooks'>,
  trigger: WebhookTrigger,
  webhookUid: string,
): Promise<WebhookCheck> {
  const webhook = await deps.webhooks.get(webhookUid);
  const name = webhook?.name ?? webhookUid;
  if (!trigger.filter.webhook_ids.includes(webhookUid)) {
    return {
      passed: false,
      detail: `${name} (${webhookUid}) is not selected in "Webhook received from"`,
    };
  }
  if (!webhook || webhook.deletedAt !== null) {
    return { passed: false, detail: `${name} is selected but was deleted: it fires no more` };
  }
  const note = webhook.enabled ? '' : ' (it is disabled now: senders get 404)';
  return { passed: true, detail: `${name} is selected${note}` };
}

export function testFilterHandlers(
  deps: FullServiceDeps,
): Pick<ServiceHandlers, 'automations.testFilter'> {
  return {
    'automations.testFilter': async ({ trigger, deliveryId }) => {
      await assertHeaderFiltersAllowed(deps, [trigger], () => 'trigger');
      const { delivery, body } = await requireStoredPayload(deps, deliveryId);
      const webhookCheck = await webhookCheckFor(deps, trigger, delivery.webhookUid);
      const parsed = parseJsonBody(body);
      // Stored payloads parsed when accepted; this guards a hand-edited database only.
      if (!parsed.ok)
        throw new ApiError('conflict', `The stored payload of ${deliveryId}: ${parsed.reason}.`);
      const payloadCheck = checkPayload(trigger.filter.payload, parsed.value);
      const request = await deps.deliveries.requestContext(deliveryId);
      const headerCheck = checkHeaders(
        trigger.filter.headers,
        request ? headerValuesFromPairs(request.headers) : null,
      );
      return {
        verdict: verdictOf(webhookCheck, payloadCheck, headerCheck),
        webhookCheck,
        payloadCheck,
        headerCheck,
      };
    },
  };
}
