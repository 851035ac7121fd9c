import type { LinksRepository } from '../links.js';
import { linksCalls } from '../sql/links.js';
import type { Queryable } from './client.js';
import { postgresRepository } from './queries.js';

/** sql/links.ts on PostgreSQL, shared by every replica. */
export function createPostgresLinksRepository(q: Queryable): LinksRepository {
  return postgresRepository(q, linksCalls);
}
