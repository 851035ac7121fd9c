import type { DeliveriesRepository } from '../deliveries.js';
import { countByPartsCall, countCall, deliveriesCalls, pageCall } from '../sql/deliveries.js';
import type { DeliveryDialect } from '../sql/delivery-filter.js';
import type { Sync } from '../store.js';
import type { Db } from './db.js';
import type { SavedTotals } from './saved-totals.js';
import { sqliteDialect, sqliteKnownHitsDialect, sqliteRareSearchDialect } from './dialect.js';
import { queriesOn, sqliteRepository } from './queries.js';
import { readSnapshot } from './read-snapshot.js';
import { searchPlans } from './search-plan.js';
import { keptSearchTotals } from './search-totals.js';
import { windowedPages } from './search-window.js';

/**
 * sql/deliveries.ts on SQLite: the read side of the delivery log. Each combination of filters is
 * one statement, prepared on first use; a search the index says is rare takes the statements its
 * own rows drive, by the hits its plan found while the index is unchanged (search-plan.ts). A
 * common one reads its page from a window of the webhook's newest entries (search-window.ts) and
 * keeps its exact total (search-totals.ts), saved too where `saved` is given (the totals' thread).
 */
export function createDeliveriesRepository(
  db: Db,
  saved?: SavedTotals,
): Sync<DeliveriesRepository> {
  const walked = sqliteRepository(db, deliveriesCalls(sqliteDialect));
  const queries = queriesOn(db);
  const snapshot = readSnapshot(db);
  const planOf = searchPlans(db);
  const windowed = windowedPages(db);
  const total = keptSearchTotals(
    db,
    (uid, only, window) => queries.run(countCall(sqliteDialect, uid, only, window)),
    (uid, only, span, window) =>
      queries.run(countByPartsCall(sqliteDialect, uid, only, span, window)),
    saved,
  );
  /** The statements a rare search's own rows drive; null for a common one. */
  const rareDialect = (q: string): DeliveryDialect | null => {
    const { rare, hits } = planOf(q);
    if (hits !== null) return sqliteKnownHitsDialect(hits);
    return rare ? sqliteRareSearchDialect : null;
  };
  return {
    ...walked,
    page: (webhookUid, limit, before, only = {}) => {
      const { q } = only;
      if (q === undefined) return walked.page(webhookUid, limit, before, only);
      return snapshot(() => {
        const rare = rareDialect(q);
        if (rare) return queries.run(pageCall(rare, webhookUid, limit, before, only));
        return windowed(webhookUid, limit, before, only, (window) =>
          queries.run(pageCall(sqliteDialect, webhookUid, limit, before, only, window)),
        );
      });
    },
    count: (webhookUid, only = {}) => {
      const { q } = only;
      if (q === undefined) return walked.count(webhookUid, only);
      return snapshot(() => {
        const rare = rareDialect(q);
        return rare ? queries.run(countCall(rare, webhookUid, only)) : total(webhookUid, only);
      });
    },
  };
}
