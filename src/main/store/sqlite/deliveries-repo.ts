import type { DeliveriesRepository } from '../deliveries.js';
import { deliveriesCalls } from '../sql/deliveries.js';
import type { Sync } from '../store.js';
import type { Db } from './db.js';
import { sqliteDialect } from './dialect.js';
import { sqliteRepository } from './queries.js';

/**
 * sql/deliveries.ts on SQLite: the read side of the delivery log. Each combination of filters is
 * one statement, prepared on first use.
 */
export function createDeliveriesRepository(db: Db): Sync<DeliveriesRepository> {
  return sqliteRepository(db, deliveriesCalls(sqliteDialect));
}
