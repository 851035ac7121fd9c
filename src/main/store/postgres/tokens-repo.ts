import type { TokensRepository } from '../tokens.js';
import { tokensCalls } from '../sql/tokens.js';
import type { Queryable } from './client.js';
import { postgresRepository } from './queries.js';

/** sql/tokens.ts on PostgreSQL: every replica checks the same tokens and sessions. */
export function createPostgresTokensRepository(q: Queryable): TokensRepository {
  return {
    ...postgresRepository(q, tokensCalls),
    // One statement, so atomic even on the pool: the token and its sessions end together.
    revoke: async (id, at) => {
      const { rows } = await q.query<{ revoked: boolean }>(
        `WITH revoked AS (
           UPDATE api_tokens SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING id
         ), ended AS (
           DELETE FROM sessions WHERE token_id IN (SELECT id FROM revoked)
         )
         SELECT EXISTS (SELECT 1 FROM revoked) AS revoked`,
        [id, at],
      );
      return rows[0]!.revoked;
    },
  };
}
