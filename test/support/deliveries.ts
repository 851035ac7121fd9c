import type { Delivery } from '../../src/shared/contract/deliveries.js';
import { bearer, postDelivery, type CreatedWebhook, type TestRelay } from './relay.js';
import { waitFor } from './wait.js';

export type { Delivery };
/** One log entry as `GET /api/deliveries/:id` answers it: the payload and the request (§13). */
export type DeliveryWithPayload = Delivery & {
  payload: string | null;
  method: string | null;
  path: string | null;
  headers: Array<[string, string]> | null;
};

/** One page of a webhook's delivery log, through the management API as the UI reads it. */
export async function listDeliveries(
  relay: Pick<TestRelay, 'api'>,
  uid: string,
  query: { limit?: number; before?: string } = {},
): Promise<{ items: Delivery[]; nextBefore: string | null }> {
  const params = new URLSearchParams();
  if (query.limit !== undefined) params.set('limit', String(query.limit));
  if (query.before !== undefined) params.set('before', query.before);
  const suffix = params.size > 0 ? `?${params.toString()}` : '';
  const response = await relay.api<{ items: Delivery[]; nextBefore: string | null }>(
    'GET',
    `/api/webhooks/${uid}/deliveries${suffix}`,
  );
  if (response.status !== 200)
    throw new Error(`listing deliveries: ${JSON.stringify(response.body)}`);
  return response.body;
}

/** One log entry, with its stored payload when it was accepted. */
export async function getDelivery(
  relay: Pick<TestRelay, 'api'>,
  id: string,
): Promise<DeliveryWithPayload> {
  const response = await relay.api<DeliveryWithPayload>('GET', `/api/deliveries/${id}`);
  if (response.status !== 200) throw new Error(`reading ${id}: ${JSON.stringify(response.body)}`);
  return response.body;
}

/**
 * The webhook's log once it holds at least `count` entries. Rejections carry no promise to the
 * sender, so they reach the log with the next commit, a moment after their answer.
 */
export async function waitForDeliveries(
  relay: Pick<TestRelay, 'api'>,
  uid: string,
  count: number,
): Promise<Delivery[]> {
  return waitFor(async () => {
    const { items } = await listDeliveries(relay, uid, { limit: 500 });
    return items.length >= count ? items : null;
  }, `${count} log entries for ${uid}`);
}

const barriers = new WeakMap<TestRelay, Promise<CreatedWebhook>>();
let barrierCount = 0;

/**
 * Waits until everything the relay has answered so far is in the log. Entries are written in
 * arrival order, so once an accepted delivery (on a webhook of its own) has its 202, every
 * earlier rejection has been committed too. Use it before asserting that something is *not*
 * in the log.
 */
export async function logSettled(relay: TestRelay): Promise<void> {
  let barrier = barriers.get(relay);
  if (!barrier) {
    barrier = relay.createWebhook({ name: 'log-barrier' });
    barriers.set(relay, barrier);
  }
  const { secret, ingressUrl } = await barrier;
  const sent = await postDelivery(ingressUrl, `{"barrier":${++barrierCount}}`, {
    ...bearer(secret),
    'x-service-delivery-id': `barrier-${Date.now()}-${barrierCount}`,
  });
  if (sent.status !== 202) throw new Error(`the log barrier got ${sent.status}`);
}
