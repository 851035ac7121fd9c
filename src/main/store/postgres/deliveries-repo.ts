import type { DeliveriesRepository } from '../deliveries.js';
import { deliveriesCalls } from '../sql/deliveries.js';
import type { Queryable } from './client.js';
import { postgresDialect } from './dialect.js';
import { postgresRepository } from './queries.js';

/** sql/deliveries.ts on PostgreSQL: the read side of the delivery log. */
export function createPostgresDeliveriesRepository(q: Queryable): DeliveriesRepository {
  return postgresRepository(q, deliveriesCalls(postgresDialect));
}
