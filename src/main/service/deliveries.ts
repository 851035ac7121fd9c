import {
  ACTIVITY_HOURS,
  VOLUME_BUCKETS,
  type LabelCounts,
} from '../../shared/contract/deliveries.js';
import type { ParsedInput } from '../../shared/contract/index.js';
import { ApiError } from '../../shared/errors.js';
import { DELIVERY_LABELS } from '../../shared/labels.js';
import type { DeliveryWriter } from '../store/delivery-writer.js';
import type { ServiceDeps } from './deps.js';
import type { ServiceHandlers } from './handlers.js';
import { withReadSummaries } from './read-summaries.js';
import { searchMatches } from './search-fragments.js';
import { deliveryJson, iso, isoOrNull } from './to-json.js';
import { requireFactory } from './webhooks.js';

const HOUR_MS = 60 * 60_000;
const emptyCounts = (): LabelCounts =>
  Object.fromEntries(DELIVERY_LABELS.map((label) => [label, 0])) as LabelCounts;

type Narrowing = Omit<ParsedInput<'deliveries.count'>, 'uid'>;

/**
 * The filter a page and its total share, for a webhook that exists or existed: a deleted
 * webhook's log stays readable, automations may still point at it.
 */
async function logFilter(deps: ServiceDeps, uid: string, narrowing: Narrowing) {
  const webhook = await deps.webhooks.get(uid);
  if (!webhook) throw new ApiError('not_found', `No webhook ${uid}.`);
  const { label, labels, identity, q, eventType, from, to } = narrowing;
  if (from !== undefined && to !== undefined && from > to) {
    throw new ApiError('invalid_input', 'from: must not be later than to', 'from');
  }
  const wanted = [...new Set([...(labels ?? []), ...(label ? [label] : [])])];
  return { webhook, filter: { labels: wanted, identity, q, eventType, from, to } };
}

/**
 * Reads of the log first wait for the batch being written: a rejection is answered before its
 * entry is committed (it rides the next batch), and what the relay has answered is in what the
 * operator reads. Later arrivals are not waited for.
 */
export function deliveryHandlers(
  deps: ServiceDeps & { writer: Pick<DeliveryWriter, 'settled'> },
): Pick<
  ServiceHandlers,
  | 'deliveries.list'
  | 'deliveries.count'
  | 'deliveries.get'
  | 'deliveries.activity'
  | 'deliveries.volume'
> {
  return {
    'deliveries.list': async ({ uid, limit, before, total, ...narrowing }, caller) => {
      await deps.writer.settled();
      const { webhook, filter } = await logFilter(deps, uid, narrowing);
      const page = await deps.deliveries.page(uid, limit, before ?? null, filter);
      const { q } = filter;
      const matches = q === undefined ? null : await searchMatches(deps, q, page.items);
      const items = (await withReadSummaries(deps, webhook, page.items)).map((record) => {
        const match = matches?.get(record.id);
        return match === undefined ? deliveryJson(record) : { ...deliveryJson(record), match };
      });
      if (total === 'later') return { items, nextBefore: page.nextBefore };
      return {
        items,
        nextBefore: page.nextBefore,
        total: await deps.deliveries.count(uid, filter, caller.gone),
      };
    },
    'deliveries.count': async ({ uid, ...narrowing }, caller) => {
      await deps.writer.settled();
      const { filter } = await logFilter(deps, uid, narrowing);
      return { total: await deps.deliveries.count(uid, filter, caller.gone) };
    },
    'deliveries.get': async ({ id }) => {
      await deps.writer.settled();
      const delivery = await deps.deliveries.get(id);
      if (!delivery) throw new ApiError('not_found', `No delivery ${id}; it may have been pruned.`);
      // Only accepted deliveries store a payload (seed §2.2); the bytes parsed as UTF-8 JSON.
      const payload =
        delivery.label === 'Accepted'
          ? ((await deps.deliveries.payload(id))?.toString('utf8') ?? null)
          : null;
      const request = await deps.deliveries.requestContext(id);
      const webhook = await deps.webhooks.get(delivery.webhookUid);
      const [summarized] = await withReadSummaries(deps, webhook, [delivery]);
      return {
        ...deliveryJson(summarized ?? delivery),
        payload,
        method: request?.method ?? null,
        path: request?.path ?? null,
        headers: request?.headers ?? null,
      };
    },
    'deliveries.volume': async ({ uid, range }) => {
      await deps.writer.settled();
      if (!(await deps.webhooks.get(uid))) throw new ApiError('not_found', `No webhook ${uid}.`);
      const { count, minutes } = VOLUME_BUCKETS[range];
      const bucketMs = minutes * 60_000;
      // Whole buckets on the clock, the last one still running, so bars stay put between reads.
      const since = (Math.floor(deps.now() / bucketMs) - (count - 1)) * bucketMs;
      const buckets = Array.from({ length: count }, emptyCounts);
      for (const row of await deps.deliveries.volumeSince(uid, since, bucketMs)) {
        const bucket = buckets[Math.min(row.bucket, count - 1)];
        if (bucket) bucket[row.label] += row.n;
      }
      return { since: iso(since), bucketMinutes: minutes, buckets };
    },
    'deliveries.activity': async ({ factory }) => {
      await deps.writer.settled();
      await requireFactory(deps, factory);
      // Clock hours, the last one still running: the buckets stay put between reads.
      const since = (Math.floor(deps.now() / HOUR_MS) - (ACTIVITY_HOURS - 1)) * HOUR_MS;
      const byUid = new Map<string, LabelCounts[]>();
      for (const webhook of await deps.webhooks.list(factory)) {
        byUid.set(webhook.uid, Array.from({ length: ACTIVITY_HOURS }, emptyCounts));
      }
      for (const row of await deps.deliveries.activitySince(factory, since)) {
        const hour = byUid.get(row.uid)?.[Math.min(row.hour, ACTIVITY_HOURS - 1)];
        if (hour) hour[row.label] += row.n;
      }
      const items = [];
      for (const [uid, hours] of byUid) {
        items.push({ uid, hours, lastDeliveryAt: isoOrNull(await deps.deliveries.latestAt(uid)) });
      }
      return { since: iso(since), items };
    },
  };
}
