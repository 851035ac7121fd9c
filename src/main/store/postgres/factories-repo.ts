import type { FactoriesRepository } from '../factories.js';
import { factoriesCalls } from '../sql/factories.js';
import type { Queryable } from './client.js';
import { postgresRepository } from './queries.js';

/** sql/factories.ts on PostgreSQL, shared by every replica. */
export function createPostgresFactoriesRepository(q: Queryable): FactoriesRepository {
  return postgresRepository(q, factoriesCalls);
}
