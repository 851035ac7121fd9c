import { ApiError } from '../../shared/errors.js';
import { headerValuesFromPairs } from '../../shared/filter/index.js';
import { newDeliveryId, newRunId } from '../ids.js';
import { describeOutcome, logDelivery } from '../ingress/delivery-line.js';
import { parseJsonBody } from '../ingress/steps/parse-json.js';
import type { FullServiceDeps } from './automation-deps.js';
import type { ServiceHandlers } from './handlers.js';
import { requireStoredPayload } from './test-filter.js';

/**
 * Replay: the stored payload goes through today's automations again as a new Accepted entry
 * with `replayOf` set. The writer skips the duplicate check for it on purpose and records that
 * in the entry's reason, so the log says why the same identity was accepted twice.
 */
export function replayHandlers(deps: FullServiceDeps): Pick<ServiceHandlers, 'deliveries.replay'> {
  return {
    'deliveries.replay': async ({ id }) => {
      const { delivery, body } = requireStoredPayload(deps, id);
      const webhook = deps.webhooks.get(delivery.webhookUid);
      if (!webhook || webhook.deletedAt !== null) {
        throw new ApiError(
          'conflict',
          `The webhook of ${id} (${delivery.webhookUid}) was deleted; its deliveries start nothing any more.`,
        );
      }
      const parsed = parseJsonBody(body);
      if (!parsed.ok)
        throw new ApiError('conflict', `The stored payload of ${id}: ${parsed.reason}.`);
      const now = deps.now();
      const replayId = newDeliveryId(now);
      // A replay is the stored request again: same headers, same event type. An entry from
      // before requests were kept has no headers, so header filters see none.
      const request = deps.deliveries.requestContext(id);
      const seen = {
        headers: headerValuesFromPairs(request?.headers ?? []),
        eventType: delivery.eventType,
      };
      const outcome = await deps.writer.accept({
        id: replayId,
        webhookUid: webhook.uid,
        receivedAt: now,
        body,
        identity: delivery.identity ?? '',
        identitySource: delivery.identitySource ?? 'body-sha256',
        clientAddress: null,
        runs: deps.automationIndex.plan(webhook, replayId, parsed.value, () => newRunId(now), seen),
        replayOf: id,
        request,
        eventType: delivery.eventType,
      });
      logDelivery(
        deps.log,
        202,
        outcome.label,
        webhook.uid,
        replayId,
        body.length,
        `replay of ${id}; ${describeOutcome(outcome)}`,
      );
      return { delivery_id: replayId, runs: outcome.label === 'Accepted' ? outcome.runIds : [] };
    },
  };
}
