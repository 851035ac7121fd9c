import type { DeliveriesRepository } from '../deliveries.js';
import { countCall, deliveriesCalls, pageCall } from '../sql/deliveries.js';
import type { Sync } from '../store.js';
import type { Db } from './db.js';
import { sqliteDialect, sqliteKnownHitsDialect, sqliteRareSearchDialect } from './dialect.js';
import { queriesOn, sqliteRepository } from './queries.js';
import { searchPlans } from './search-plan.js';
import { keptSearchTotals } from './search-totals.js';
import { windowedPages } from './search-window.js';

/**
 * sql/deliveries.ts on SQLite: the read side of the delivery log. Each combination of filters is
 * one statement, prepared on first use; a search the index says is rare takes the statements its
 * own rows drive, by the hits its plan found while the index is unchanged (search-plan.ts). A common one reads its page from a window of the webhook's
 * newest entries (search-window.ts) and keeps its exact total (search-totals.ts).
 */
export function createDeliveriesRepository(db: Db): Sync<DeliveriesRepository> {
  const walked = sqliteRepository(db, deliveriesCalls(sqliteDialect));
  const driven = sqliteRepository(db, deliveriesCalls(sqliteRareSearchDialect));
  const queries = queriesOn(db);
  const planOf = searchPlans(db);
  const windowed = windowedPages(db);
  const total = keptSearchTotals(db, (uid, only, window) =>
    queries.run(countCall(sqliteDialect, uid, only, window)),
  );
  return {
    ...walked,
    page: (webhookUid, limit, before, only = {}) => {
      if (only.q === undefined) return walked.page(webhookUid, limit, before, only);
      const { rare, hits } = planOf(only.q);
      if (hits !== null) {
        return queries.run(pageCall(sqliteKnownHitsDialect(hits), webhookUid, limit, before, only));
      }
      if (rare) return driven.page(webhookUid, limit, before, only);
      return windowed(webhookUid, limit, before, only, (window) =>
        queries.run(pageCall(sqliteDialect, webhookUid, limit, before, only, window)),
      );
    },
    count: (webhookUid, only = {}) => {
      if (only.q === undefined) return walked.count(webhookUid, only);
      const { rare, hits } = planOf(only.q);
      if (hits !== null)
        return queries.run(countCall(sqliteKnownHitsDialect(hits), webhookUid, only));
      if (rare) return driven.count(webhookUid, only);
      return total(webhookUid, only);
    },
  };
}
