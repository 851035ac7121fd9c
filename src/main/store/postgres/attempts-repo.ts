import type { AttemptsRepository } from '../attempts.js';
import { ADVANCE_PLACE, attemptsCalls, attemptValues, INSERT_ATTEMPT } from '../sql/attempts.js';
import type { Queryable } from './client.js';
import { postgresRepository } from './queries.js';

/** sql/attempts.ts on PostgreSQL. */
export function createPostgresAttemptsRepository(q: Queryable): AttemptsRepository {
  return {
    ...postgresRepository(q, attemptsCalls),
    /**
     * The attempt and, for a delivered forwarder attempt, the URL's new place: one statement, so
     * both or neither, even on the pool.
     */
    async record(attempt) {
      await q.query(
        `WITH attempt AS (${INSERT_ATTEMPT})
         INSERT INTO forward_cursors (webhook_uid, url, delivery_id, updated_at)
         SELECT $3, $4, $2, $5 WHERE $15 AND $16 ${ADVANCE_PLACE}`,
        attemptValues(attempt),
      );
    },
  };
}
