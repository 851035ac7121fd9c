import { MAX_BODY_BYTES } from '../../shared/limits.js';
import type { BatchItem } from './delivery-batch.js';

/** The largest size a log entry records: a refused body past the limit is "limit + 1". */
export const MAX_LOGGED_SIZE = MAX_BODY_BYTES + 1;

const inRange = (value: number, max: number): boolean =>
  Number.isSafeInteger(value) && value >= 0 && value <= max;

/**
 * Why an item may not join a batch, or null: a value a column refuses (SQLite's STRICT INTEGER
 * past int64, PostgreSQL's bigint) would roll back every other sender's delivery with it, and a
 * size past 2^53 would be stored but then fail the contract on every read of the log.
 */
export function itemProblem(pending: BatchItem): string | null {
  const { item } = pending;
  if (!inRange(item.receivedAt, Number.MAX_SAFE_INTEGER)) {
    return `received at ${item.receivedAt}, not a time in milliseconds`;
  }
  if (pending.kind === 'reject' && !inRange(pending.item.size, MAX_LOGGED_SIZE)) {
    return `a size of ${pending.item.size}, not a whole number of at most ${MAX_LOGGED_SIZE}`;
  }
  return null;
}

/** A size as the log shows it: entries stored before sizes were bounded read as at most the bound. */
export const shownSize = (size: number): number =>
  Number.isSafeInteger(size) && size <= MAX_LOGGED_SIZE ? size : MAX_LOGGED_SIZE;
