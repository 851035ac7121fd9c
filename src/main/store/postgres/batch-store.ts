import pg from 'pg';
import type { BatchItem, BatchResult, DeliveryBatchStore } from '../delivery-batch.js';
import { oneByOne } from '../delivery-batch.js';
import { recordsOf, type AcceptDecision } from '../batch-records.js';
import { batchStatement, MAX_BATCH_ITEMS, type DecidedRow } from './batch-statement.js';
import type { PgPool } from './pool.js';

export interface PostgresBatchStoreOptions {
  dedupeWindowMs: number;
}

/** deadlock_detected, serialization_failure: the transaction was rolled back whole; run it again. */
const RETRYABLE = new Set(['40P01', '40001']);
const ATTEMPTS = 3;
/** SQLSTATE classes that say the database cannot commit now, whatever the batch holds. */
const UNAVAILABLE_CLASSES = new Set(['08', '53', '57', '58']);
/**
 * Two batches in flight: while one waits on its round trip and fsync, the next one's backend
 * inserts and updates the indexes. Two batches holding one identity stay correct: the second's
 * ON CONFLICT waits for the first to end (batch-statement.ts).
 */
const COMMITS_IN_FLIGHT = 2;

/**
 * The write-path seam on PostgreSQL: a batch is one statement, so one transaction and one round
 * trip (deliveries, request contexts, payloads, dedupe keys, runs: batch-statement.ts), and
 * `commit` resolves only once it has returned, which with synchronous_commit=on means the WAL
 * is flushed. Rejects, with nothing written, otherwise.
 */
export function createPostgresBatchStore(
  pool: PgPool,
  options: PostgresBatchStoreOptions,
): DeliveryBatchStore {
  return {
    commitsInFlight: COMMITS_IN_FLIGHT,
    maxBatchItems: MAX_BATCH_ITEMS,
    async commit(batch: BatchItem[]): Promise<BatchResult> {
      try {
        return await commitStatement(pool, batch, options.dedupeWindowMs);
      } catch (error) {
        if (batch.length === 1 || !refusedForItsData(error)) throw error;
        return oneByOne(batch, (pending) =>
          commitStatement(pool, [pending], options.dedupeWindowMs),
        );
      }
    },
  };
}

async function commitStatement(
  pool: PgPool,
  batch: BatchItem[],
  dedupeWindowMs: number,
): Promise<BatchResult> {
  const { text, values } = batchStatement(batch, dedupeWindowMs);
  for (let attempt = 1; ; attempt++) {
    try {
      const { rows } = await pool.query<DecidedRow>(text, values);
      return resultOf(batch, rows);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (attempt === ATTEMPTS || typeof code !== 'string' || !RETRYABLE.has(code)) throw error;
    }
  }
}

/**
 * The server answered and refused the statement, not because it is unreachable, shutting down or
 * out of resources (classes 08, 53, 57, 58): some item's value may be at fault, so the batch is
 * worth writing one item at a time. In an outage that would only multiply the failures.
 */
function refusedForItsData(error: unknown): boolean {
  if (!(error instanceof pg.DatabaseError) || typeof error.code !== 'string') return false;
  return !UNAVAILABLE_CLASSES.has(error.code.slice(0, 2));
}

/** The outcome and log row of every item, from what the statement decided for it. */
function resultOf(batch: BatchItem[], rows: DecidedRow[]): BatchResult {
  if (rows.length !== batch.length) {
    throw new Error(`the batch statement answered ${rows.length} rows for ${batch.length} items`);
  }
  const decisions = rows.map(({ label, duplicate_of: holder }, i): AcceptDecision | null => {
    if (batch[i]!.kind === 'reject') return null;
    if (label === 'Accepted') return { label: 'Accepted' };
    if (holder === null)
      throw new Error(`delivery ${batch[i]!.item.id} was decided a duplicate of nothing`);
    return { label: 'Duplicate', duplicateOf: holder };
  });
  return recordsOf(batch, decisions);
}
