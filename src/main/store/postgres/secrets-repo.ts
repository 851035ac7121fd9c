import type { SecretsRepository } from '../secrets.js';
import { secretsCalls } from '../sql/secrets.js';
import type { Queryable } from './client.js';
import { postgresRepository } from './queries.js';

/** sql/secrets.ts on PostgreSQL, shared by every replica. */
export function createPostgresSecretsRepository(q: Queryable): SecretsRepository {
  return postgresRepository(q, secretsCalls);
}
