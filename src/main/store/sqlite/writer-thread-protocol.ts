import type { AcceptOutcome, BatchItem, BatchResult } from '../delivery-batch.js';
import type { RetentionPolicy } from '../retention-policy.js';
import type { BatchStoreOptions } from './batch-store.js';
import type { ThreadScript } from './thread-script.js';

/** What the writer thread is started with. */
export interface WriterThreadData {
  file: string;
  options: BatchStoreOptions;
  /** `WriterYield`'s memory: who waits for the write lock while background work holds it. */
  lockWanted: SharedArrayBuffer;
  /** How to start the index thread (index-thread-start.ts), found where the main thread runs. */
  indexThread: ThreadScript;
}

export type ToWriterThread =
  | { type: 'commit'; id: number; batch: BatchItem[] }
  | { type: 'close' }
  /** Retention runs here too, in paced slices between commits (retention.ts). */
  | { type: 'prune'; id: number; policy: RetentionPolicy; now: number };

/**
 * A commit's result as it crosses back: without its outcomes, which the main thread reads off the
 * committed rows (`withOutcomes`), so that each accepted delivery's ID and label are not cloned
 * twice into the thread that answers senders.
 */
export type CommittedBatch = Omit<BatchResult, 'outcomes'>;

export function withoutOutcomes({ outcomes: _outcomes, ...rest }: BatchResult): CommittedBatch {
  return rest;
}

/** The result again, its outcomes those of its accept rows (Accepted or Duplicate), in order. */
export function withOutcomes(result: CommittedBatch): BatchResult {
  const outcomes: AcceptOutcome[] = [];
  for (const row of result.committed) {
    if (row.label === 'Accepted') {
      outcomes.push({ label: 'Accepted', deliveryId: row.id, runIds: row.runIds });
    } else if (row.label === 'Duplicate') {
      outcomes.push({ label: 'Duplicate', deliveryId: row.id, duplicateOf: row.duplicateOf! });
    }
  }
  return { outcomes, ...result };
}

/** An error as it crosses the thread boundary: SQLite's code (SQLITE_BUSY, …) survives. */
export interface ThreadError {
  name: string;
  message: string;
  code: string | null;
}

export type FromWriterThread =
  | { type: 'ready' }
  | { type: 'open-failed'; error: ThreadError }
  | { type: 'committed'; id: number; result: CommittedBatch }
  | { type: 'failed'; id: number; error: ThreadError }
  /**
   * After a search index slice that indexed something, or when it changes: whether the index has
   * work left (entries queued, or segments to merge). The thread stays up until it has none.
   */
  | { type: 'indexed'; more: boolean }
  | { type: 'index-failed'; error: ThreadError }
  | { type: 'pruned'; id: number; removed: number }
  | { type: 'prune-failed'; id: number; error: ThreadError };

export function toThreadError(error: unknown): ThreadError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), code: null };
  const code = (error as Error & { code?: unknown }).code;
  return { name: error.name, message: error.message, code: typeof code === 'string' ? code : null };
}

export function fromThreadError({ name, message, code }: ThreadError): Error {
  return Object.assign(new Error(message), { name, ...(code === null ? {} : { code }) });
}

/** How many body bytes the batch's accepted deliveries hold: the size of the scratch it needs. */
export function bodyBytes(batch: readonly BatchItem[]): number {
  let total = 0;
  for (const entry of batch) if (entry.kind === 'accept') total += entry.item.body.length;
  return total;
}

/**
 * The batch as it is posted: each accepted delivery's body copied into `scratch`, memory shared
 * with the thread, so the bytes are not copied again into the message and out of it and no
 * buffer is left behind per body for either thread's garbage collector. Each item's body is
 * replaced in place by its view of the scratch (no copy of the item or of the batch per commit):
 * the items are the store's once handed over (delivery-writer.ts lets go of them), and the
 * bytes stay where they were until the thread has answered.
 */
export function withSharedBodies(batch: BatchItem[], scratch: SharedArrayBuffer): BatchItem[] {
  let offset = 0;
  for (const entry of batch) {
    if (entry.kind !== 'accept') continue;
    const { body } = entry.item;
    const view = new Uint8Array(scratch, offset, body.length);
    view.set(body);
    offset += body.length;
    entry.item.body = view as Buffer;
  }
  return batch;
}

/**
 * On the thread: structured clone turned each body into a plain Uint8Array (a view of the shared
 * scratch); it becomes a Buffer again (a view, no copy), as the SQL and the types expect.
 */
export function reviveBodies(batch: BatchItem[]): BatchItem[] {
  for (const entry of batch) {
    if (entry.kind !== 'accept') continue;
    const body: Uint8Array = entry.item.body;
    if (!Buffer.isBuffer(body)) {
      entry.item.body = Buffer.from(body.buffer, body.byteOffset, body.length);
    }
  }
  return batch;
}
