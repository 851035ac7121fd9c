import type { AutomationsRepository } from '../automations.js';
import { automationsCalls } from '../sql/automations.js';
import type { Queryable } from './client.js';
import { postgresRepository } from './queries.js';

/** sql/automations.ts on PostgreSQL, shared by every replica. */
export function createPostgresAutomationsRepository(q: Queryable): AutomationsRepository {
  return postgresRepository(q, automationsCalls);
}
