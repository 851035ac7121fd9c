import type { AttemptRecord, AttemptsRepository } from '../attempts.js';
import { ADVANCE_PLACE, attemptsCalls, attemptValues, INSERT_ATTEMPT } from '../sql/attempts.js';
import { run } from '../sql/query.js';
import type { Sync } from '../store.js';
import type { Db } from './db.js';
import { queriesOn, sqliteRepository } from './queries.js';

/** sql/attempts.ts on SQLite; an attempt and its URL's new place are one transaction. */
export function createAttemptsRepository(db: Db): Sync<AttemptsRepository> {
  const queries = queriesOn(db);
  const record = db.transaction((attempt: AttemptRecord): void => {
    queries.run(run(INSERT_ATTEMPT, attemptValues(attempt)));
    if (attempt.forwarder && attempt.delivered) {
      queries.run(
        run(
          `INSERT INTO forward_cursors (webhook_uid, url, delivery_id, updated_at)
           VALUES ($1, $2, $3, $4) ${ADVANCE_PLACE}`,
          [attempt.webhookUid, attempt.url, attempt.deliveryId, attempt.at],
        ),
      );
    }
  });
  return {
    ...sqliteRepository(db, attemptsCalls),
    /** The attempt and, for a delivered forwarder attempt, the URL's new place: one transaction. */
    record: (attempt: AttemptRecord): void => record(attempt),
  };
}
