import { ACTIVITY_HOURS, type LabelCounts } from '../../shared/contract/deliveries.js';
import { ApiError } from '../../shared/errors.js';
import { DELIVERY_LABELS } from '../../shared/labels.js';
import type { DeliveryWriter } from '../store/delivery-writer.js';
import type { ServiceDeps } from './deps.js';
import type { ServiceHandlers } from './handlers.js';
import { deliveryJson, iso, isoOrNull } from './to-json.js';
import { requireFactory } from './webhooks.js';

const HOUR_MS = 60 * 60_000;
const emptyCounts = (): LabelCounts =>
  Object.fromEntries(DELIVERY_LABELS.map((label) => [label, 0])) as LabelCounts;

/**
 * Reads of the log first wait for the batch being written: a rejection is answered before its
 * entry is committed (it rides the next batch), and what the relay has answered is in what the
 * operator reads. Later arrivals are not waited for.
 */
export function deliveryHandlers(
  deps: ServiceDeps & { writer: Pick<DeliveryWriter, 'settled'> },
): Pick<ServiceHandlers, 'deliveries.list' | 'deliveries.get' | 'deliveries.activity'> {
  return {
    'deliveries.list': async ({ uid, limit, before, label, identity }) => {
      await deps.writer.settled();
      // A deleted webhook's log stays readable: automations may still point at it.
      if (!deps.webhooks.get(uid)) throw new ApiError('not_found', `No webhook ${uid}.`);
      const page = deps.deliveries.page(uid, limit, before ?? null, { label, identity });
      return { items: page.items.map(deliveryJson), nextBefore: page.nextBefore };
    },
    'deliveries.get': async ({ id }) => {
      await deps.writer.settled();
      const delivery = deps.deliveries.get(id);
      if (!delivery) throw new ApiError('not_found', `No delivery ${id}; it may have been pruned.`);
      // Only accepted deliveries store a payload (seed §2.2); the bytes parsed as UTF-8 JSON.
      const payload =
        delivery.label === 'Accepted'
          ? (deps.deliveries.payload(id)?.toString('utf8') ?? null)
          : null;
      return { ...deliveryJson(delivery), payload };
    },
    'deliveries.activity': async ({ factory }) => {
      await deps.writer.settled();
      requireFactory(deps, factory);
      // Clock hours, the last one still running: the buckets stay put between reads.
      const since = (Math.floor(deps.now() / HOUR_MS) - (ACTIVITY_HOURS - 1)) * HOUR_MS;
      const byUid = new Map<string, LabelCounts[]>();
      for (const webhook of deps.webhooks.list(factory)) {
        byUid.set(webhook.uid, Array.from({ length: ACTIVITY_HOURS }, emptyCounts));
      }
      for (const row of deps.deliveries.activitySince(factory, since)) {
        const hour = byUid.get(row.uid)?.[Math.min(row.hour, ACTIVITY_HOURS - 1)];
        if (hour) hour[row.label] += row.n;
      }
      return {
        since: iso(since),
        items: [...byUid].map(([uid, hours]) => ({
          uid,
          hours,
          lastDeliveryAt: isoOrNull(deps.deliveries.latestAt(uid)),
        })),
      };
    },
  };
}
