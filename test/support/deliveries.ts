import type { Delivery } from '../../src/shared/contract/deliveries.js';
import type { MethodOutput } from '../../src/shared/contract/index.js';
import { bearer, postDelivery, type CreatedWebhook, type TestRelay } from './relay.js';
import { waitFor } from './wait.js';

export type { Delivery };
/** One log entry as `deliveries.get` answers it: the payload and the request (§13). */
export type DeliveryWithPayload = MethodOutput<'deliveries.get'>;

/** One page of a webhook's delivery log, through the management API as the UI reads it. */
export function listDeliveries(
  relay: Pick<TestRelay, 'call'>,
  uid: string,
  query: { limit?: number; before?: string } = {},
): Promise<MethodOutput<'deliveries.list'>> {
  return relay.call('deliveries.list', { uid, ...query });
}

/** One log entry, with its stored payload when it was accepted. */
export function getDelivery(
  relay: Pick<TestRelay, 'call'>,
  id: string,
): Promise<DeliveryWithPayload> {
  return relay.call('deliveries.get', { id });
}

/**
 * The webhook's log once it holds at least `count` entries. Rejections carry no promise to the
 * sender, so they reach the log with the next commit, a moment after their answer.
 */
export async function waitForDeliveries(
  relay: Pick<TestRelay, 'call'>,
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
