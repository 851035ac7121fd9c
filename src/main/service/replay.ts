import { ApiError } from '../../shared/errors.js';
import { headerValuesFromPairs } from '../../shared/filter/index.js';
import { newDeliveryId, newRunId } from '../ids.js';
import { describeOutcome, logDelivery } from '../ingress/delivery-line.js';
import { parseJsonBody } from '../ingress/steps/parse-json.js';
import type { AcceptItem } from '../store/delivery-batch.js';
import { flatHeaders } from '../store/request-headers.js';
import type { FullServiceDeps } from './automation-deps.js';
import type { ServiceHandlers } from './handlers.js';
import { requireStoredPayload } from './test-filter.js';

interface PreparedReplay {
  item: AcceptItem;
  originalId: string;
}

/** Everything a replay needs, checked; throws the API's refusal when it cannot be replayed. */
async function prepareReplay(deps: FullServiceDeps, id: string): Promise<PreparedReplay> {
  const { delivery, body } = await requireStoredPayload(deps, id);
  const webhook = await deps.webhooks.get(delivery.webhookUid);
  if (!webhook || webhook.deletedAt !== null) {
    throw new ApiError(
      'conflict',
      `The webhook of ${id} (${delivery.webhookUid}) was deleted; its deliveries start nothing any more.`,
    );
  }
  const parsed = parseJsonBody(body);
  if (!parsed.ok) throw new ApiError('conflict', `The stored payload of ${id}: ${parsed.reason}.`);
  const now = deps.now();
  const replayId = newDeliveryId(now);
  // A replay is the stored request again: same headers, same event type. An entry from before
  // requests were kept has no headers, so header filters see none.
  const request = await deps.deliveries.requestContext(id);
  const seen = {
    headers: headerValuesFromPairs(request?.headers ?? []),
    eventType: delivery.eventType,
  };
  return {
    originalId: id,
    item: {
      id: replayId,
      webhookUid: webhook.uid,
      receivedAt: now,
      body,
      identity: delivery.identity ?? '',
      identitySource: delivery.identitySource ?? 'body-sha256',
      clientAddress: null,
      runs: deps.automationIndex.plan(webhook, replayId, parsed.value, () => newRunId(now), seen),
      replayOf: id,
      request: request && { ...request, headers: flatHeaders(request.headers) },
      eventType: delivery.eventType,
      summary: delivery.summary,
    },
  };
}

async function writeReplay(
  deps: FullServiceDeps,
  { item, originalId }: PreparedReplay,
): Promise<{ delivery_id: string; runs: string[] }> {
  const outcome = await deps.writer.accept(item);
  logDelivery(
    deps.log,
    202,
    outcome.label,
    item.webhookUid,
    item.id,
    item.body.length,
    `replay of ${originalId}; ${describeOutcome(outcome)}`,
  );
  return { delivery_id: item.id, runs: outcome.label === 'Accepted' ? outcome.runIds : [] };
}

/**
 * Replay: the stored payload goes through today's automations again as a new Accepted entry
 * with `replayOf` set. The writer skips the duplicate check for it on purpose and records that
 * in the entry's reason, so the log says why the same identity was accepted twice.
 */
export function replayHandlers(
  deps: FullServiceDeps,
): Pick<ServiceHandlers, 'deliveries.replay' | 'deliveries.replayMany'> {
  return {
    'deliveries.replay': async ({ id }) => writeReplay(deps, await prepareReplay(deps, id)),

    // All or nothing: every ID is checked before the first replay is written. The writes go
    // out together, so the group commit takes them in a few transactions, in the order given.
    'deliveries.replayMany': async ({ ids }) => {
      const prepared: PreparedReplay[] = [];
      for (const [index, id] of ids.entries()) {
        try {
          prepared.push(await prepareReplay(deps, id));
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          throw new ApiError(
            error.code,
            `Nothing was replayed: ${error.message} Leave it out and try again.`,
            `ids.${index}`,
          );
        }
      }
      const items = await Promise.all(prepared.map((p) => writeReplay(deps, p)));
      return { items: items.map((result, index) => ({ id: ids[index]!, ...result })) };
    },
  };
}
