import { ApiError } from '../../shared/errors.js';
import type { ServiceDeps } from './deps.js';
import type { ServiceHandlers } from './handlers.js';
import { deliveryJson } from './to-json.js';

export function deliveryHandlers(
  deps: ServiceDeps,
): Pick<ServiceHandlers, 'deliveries.list' | 'deliveries.get'> {
  return {
    'deliveries.list': ({ uid, limit, before }) => {
      // A deleted webhook's log stays readable: automations may still point at it.
      if (!deps.webhooks.get(uid)) throw new ApiError('not_found', `No webhook ${uid}.`);
      const page = deps.deliveries.page(uid, limit, before ?? null);
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
      return Promise.resolve({ ...deliveryJson(delivery), payload });
    },
  };
}
