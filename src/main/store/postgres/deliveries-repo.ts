import type { DeliveriesRepository } from '../deliveries.js';
import { deliveriesCalls, pageCall } from '../sql/deliveries.js';
import type { Queryable } from './client.js';
import { postgresDialect } from './dialect.js';
import { coalescedPayloads } from './payload-reads.js';
import { postgresRepository, runCall } from './queries.js';
import { keptSearchTotals } from './search-totals.js';
import { windowedPages } from './search-window.js';

/**
 * A delivery ID, or a prefix of one down to the second it was minted in: a few entries at most,
 * read through the indexes without trying a window first.
 */
const DELIVERY_ID_PREFIX = /^dlv_[0-9a-z]{8}/i;

/**
 * sql/deliveries.ts on PostgreSQL: the read side of the delivery log. A search reads its page
 * from a window of the webhook's newest entries (search-window.ts) and keeps its exact total
 * (search-totals.ts).
 */
export function createPostgresDeliveriesRepository(q: Queryable): DeliveriesRepository {
  const plain = postgresRepository(q, deliveriesCalls(postgresDialect));
  const windowed = windowedPages(q);
  const total = keptSearchTotals(q);
  const payload = coalescedPayloads(q);
  return {
    ...plain,
    payload,
    page: (webhookUid, limit, before, only = {}) => {
      if (only.q === undefined || DELIVERY_ID_PREFIX.test(only.q)) {
        return plain.page(webhookUid, limit, before, only);
      }
      return windowed(
        webhookUid,
        limit,
        before,
        only,
        (window) => runCall(q, pageCall(postgresDialect, webhookUid, limit, before, only, window)),
        () => plain.page(webhookUid, limit, before, only),
      );
    },
    count: (webhookUid, only = {}, gone) => {
      if (only.q === undefined) return plain.count(webhookUid, only);
      return total(webhookUid, only, gone);
    },
  };
}
