import type {
  AcceptItem,
  AcceptOutcome,
  BatchItem,
  BatchResult,
  PlannedRun,
} from '../delivery-batch.js';
import type { IdentitySource } from '../deliveries.js';
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
  | { type: 'commit'; id: number; batch: PostedItem[] }
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
 * An accepted delivery as it is posted: its fields by position, not by name. The structured
 * clone writes every key of every object it copies, and on the thread that answers senders the
 * clone of each batch was a measured share of each accept (issue 25): a list of fields is about
 * half the cost of the item's objects (docs/operations/performance.md, the accept path's ninth
 * pass).
 * `encodeAccept` and `decodeAccept` are the only code that knows the order.
 */
type PostedAccept = [
  id: string,
  webhookUid: string,
  receivedAt: number,
  body: Uint8Array,
  identity: string,
  identitySource: IdentitySource,
  clientAddress: string | null,
  runs: PlannedRun[],
  method: string | null,
  path: string | null,
  headers: readonly string[] | null,
  eventType: string | null,
  summary: string | null | undefined,
  replayOf: string | undefined,
  signatureKey: string | undefined,
];

/** A batch's item as posted: an accepted delivery encoded, a rejection (rare) as it is. */
export type PostedItem = PostedAccept | Extract<BatchItem, { kind: 'reject' }>;

function encodeAccept(item: AcceptItem, body: Uint8Array): PostedAccept {
  const { request } = item;
  return [
    item.id,
    item.webhookUid,
    item.receivedAt,
    body,
    item.identity,
    item.identitySource,
    item.clientAddress,
    item.runs,
    request === null ? null : request.method,
    request === null ? null : request.path,
    request === null ? null : request.headers,
    item.eventType,
    item.summary,
    item.replayOf,
    item.signatureKey,
  ];
}

/** On the thread: the item again, its body a Buffer over the shared scratch (a view, no copy). */
function decodeAccept(posted: PostedAccept): AcceptItem {
  const [
    id,
    webhookUid,
    receivedAt,
    bytes,
    identity,
    identitySource,
    clientAddress,
    runs,
    method,
    path,
    headers,
    eventType,
    summary,
    replayOf,
    signatureKey,
  ] = posted;
  const item: AcceptItem = {
    id,
    webhookUid,
    receivedAt,
    body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length),
    identity,
    identitySource,
    clientAddress,
    runs,
    request: method === null ? null : { method, path: path!, headers: headers! },
    eventType,
    summary,
  };
  if (replayOf !== undefined) item.replayOf = replayOf;
  if (signatureKey !== undefined) item.signatureKey = signatureKey;
  return item;
}

/**
 * The batch as it is posted: each accepted delivery encoded (`PostedAccept`) with its body
 * copied into `scratch`, memory shared with the thread, so the bytes are not copied again into
 * the message and out of it and no buffer is left behind per body for either thread's garbage
 * collector. The bytes stay where they are until the thread has answered.
 */
export function postedBatch(batch: readonly BatchItem[], scratch: SharedArrayBuffer): PostedItem[] {
  let offset = 0;
  return batch.map((entry) => {
    if (entry.kind !== 'accept') return entry;
    const { body } = entry.item;
    const view = new Uint8Array(scratch, offset, body.length);
    view.set(body);
    offset += body.length;
    return encodeAccept(entry.item, view);
  });
}

/** On the thread: the batch as the store takes it. */
export function receivedBatch(posted: readonly PostedItem[]): BatchItem[] {
  return posted.map((entry) =>
    Array.isArray(entry) ? { kind: 'accept', item: decodeAccept(entry) } : entry,
  );
}
