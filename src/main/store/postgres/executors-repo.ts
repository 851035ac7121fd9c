import type { ExecutorsRepository } from '../executors.js';
import { executorsCalls } from '../sql/executors.js';
import type { Queryable } from './client.js';
import { postgresRepository } from './queries.js';

/** sql/executors.ts on PostgreSQL, shared by every replica. */
export function createPostgresExecutorsRepository(q: Queryable): ExecutorsRepository {
  return postgresRepository(q, executorsCalls);
}
