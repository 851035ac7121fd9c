import { createHash } from 'node:crypto';
import { withClient } from './client.js';
import type { PgPool } from './pool.js';

/**
 * Advisory lock keys are (namespace, key) pairs of int4: Hookport's own namespaces keep its
 * locks apart from any other application sharing the database.
 */
export const JOB_LOCK_NAMESPACE = 0x486f6f6b; // 'Hook'
/** Taken by hookport_reserve_slots (migration 1) per rate-limit key; listed here to stay apart. */
export const RATE_LOCK_NAMESPACE = 0x486f6f6c;

/** A stable int4 for a job name (the first four bytes of its SHA-256). */
export function jobLockKey(name: string): number {
  return createHash('sha256').update(name, 'utf8').digest().readInt32BE(0);
}

export type AdvisoryLockResult<T> = { ran: true; value: T } | { ran: false };

/**
 * Runs `job` only if no other replica is running the job of this name, else returns
 * `{ran: false}` at once: retention and definition sync run on one replica at a time.
 *
 * A session-level lock on a client held for the job's duration (the job itself may use other
 * connections and many transactions). If the client's connection dies the server drops the lock;
 * the job then no longer holds it, and the client is discarded rather than returned to the pool.
 * Session locks need session pooling: behind PgBouncer, point Hookport at a session-mode pool.
 */
export async function withAdvisoryLock<T>(
  pool: PgPool,
  name: string,
  job: () => Promise<T>,
): Promise<AdvisoryLockResult<T>> {
  const key = [JOB_LOCK_NAMESPACE, jobLockKey(name)];
  return withClient(pool, async (client, markBroken) => {
    const { rows } = await client.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_lock($1, $2) AS locked',
      key,
    );
    if (!rows[0]?.locked) return { ran: false };
    try {
      return { ran: true, value: await job() };
    } finally {
      // Closing the connection is what releases a lock whose unlock failed.
      await client.query('SELECT pg_advisory_unlock($1, $2)', key).catch(markBroken);
    }
  });
}
