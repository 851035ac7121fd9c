import { ACTIVITY_HOURS, type LabelCounts } from '../../shared/contract/deliveries.js';
import { ApiError } from '../../shared/errors.js';
import { DELIVERY_LABELS } from '../../shared/labels.js';
import type { ServiceDeps } from './deps.js';
import type { ServiceHandlers } from './handlers.js';
import { deliveryJson, iso, isoOrNull } from './to-json.js';
import { requireFactory } from './webhooks.js';

const HOUR_MS = 60 * 60_000;
const emptyCounts = (): LabelCounts =>
  Object.fromEntries(DELIVERY_LABELS.map((label) => [label, 0])) as LabelCounts;

export function deliveryHandlers(
  deps: ServiceDeps,
): Pick<ServiceHandlers, 'deliveries.list' | 'deliveries.get' | 'deliveries.activity'> {
  return {
    'deliveries.list': ({ uid, limit, before, label, identity }) => {
      // A deleted webhook's log stays readable: automations may still point at it.
      if (!deps.webhooks.get(uid)) throw new ApiError('not_found', `No webhook ${uid}.`);
      const page = deps.deliveries.page(uid, limit, before ?? null, { label, identity });
      return Promise.resolve({ items: page.items.map(deliveryJson), nextBefore: page.nextBefore });
    },
    'deliveries.get': ({ id }) => {
      const delivery = deps.deliveries.get(id);
      if (!delivery) throw new ApiError('not_found', `No delivery ${id}; it may have been pruned.`);
      // Only accepted deliveries store a payload (seed §2.2); the bytes parsed as UTF-8 JSON.
      const payload =
        delivery.label === 'Accepted'
          ? (deps.deliveries.payload(id)?.toString('utf8') ?? null)
          : null;
      const request = deps.deliveries.requestContext(id);
      return Promise.resolve({
        ...deliveryJson(delivery),
        payload,
        method: request?.method ?? null,
        path: request?.path ?? null,
        headers: request?.headers ?? null,
      });
    },
    'deliveries.activity': ({ factory }) => {
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
      return Promise.resolve({
        since: iso(since),
        items: [...byUid].map(([uid, hours]) => ({
          uid,
          hours,
          lastDeliveryAt: isoOrNull(deps.deliveries.latestAt(uid)),
        })),
      });
    },
  };
}
