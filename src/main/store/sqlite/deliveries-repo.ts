import type { DeliveriesRepository } from '../deliveries.js';
import { deliveriesCalls } from '../sql/deliveries.js';
import type { Sync } from '../store.js';
import type { Db } from './db.js';
import { sqliteDialect, sqliteRareSearchDialect } from './dialect.js';
import { sqliteRepository } from './queries.js';
import { rareSearch } from './search-plan.js';

/**
 * sql/deliveries.ts on SQLite: the read side of the delivery log. Each combination of filters is
 * one statement, prepared on first use; a search the index says is rare takes the statements its
 * own rows drive (search-plan.ts).
 */
export function createDeliveriesRepository(db: Db): Sync<DeliveriesRepository> {
  const walked = sqliteRepository(db, deliveriesCalls(sqliteDialect));
  const driven = sqliteRepository(db, deliveriesCalls(sqliteRareSearchDialect));
  const rare = rareSearch(db);
  const plan = (q: string | undefined): Sync<DeliveriesRepository> =>
    q !== undefined && rare(q) ? driven : walked;
  return {
    ...walked,
    page: (webhookUid, limit, before, only = {}) =>
      plan(only.q).page(webhookUid, limit, before, only),
    count: (webhookUid, only = {}) => plan(only.q).count(webhookUid, only),
  };
}
