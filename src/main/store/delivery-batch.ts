import { performance } from 'node:perf_hooks';
import type { DeliveryLabel } from '../../shared/labels.js';
import type { DeliveryRecord, IdentitySource } from './deliveries.js';

/**
 * The write-path seam: what the accept path hands a store, and what the store promises back.
 * The SQLite store (in-thread or on a writer thread) and the PostgreSQL store implement
 * `DeliveryBatchStore`; the group-commit queue (`DeliveryWriter`) knows only this interface.
 */

/** A run to queue if, and only if, the delivery is accepted (not a duplicate). */
export interface PlannedRun {
  id: string;
  automationId: string;
  /** PROMPT.md: the automation prompt followed by the platform envelope. */
  input: string;
}

/** The request a log entry came from, as stored: credential values already redacted. */
export interface RequestContext {
  method: string;
  /** The request target as received, with a URL token replaced by `{token}`. */
  path: string;
  /** In the order received, names as sent; a repeated header is several pairs. */
  headers: Array<[string, string]>;
}

/**
 * The request as the accept path hands it to a store: its headers one flat list, each name
 * followed by its value (the shape of Node's `rawHeaders`), so that no pair array is built per
 * header on the thread that answers senders, nor cloned to the writer thread. Stored as
 * `RequestContext`'s pairs (`headersJson`), so a log entry reads back as before.
 */
export interface ReceivedRequest {
  method: string;
  /** The request target as received, with a URL token replaced by `{token}`. */
  path: string;
  /** In the order received, names as sent: name, value, name, value, … */
  headers: readonly string[];
}

export interface AcceptItem {
  id: string;
  webhookUid: string;
  receivedAt: number;
  body: Buffer;
  identity: string;
  identitySource: IdentitySource;
  clientAddress: string | null;
  runs: PlannedRun[];
  /** Null where no request was recorded (entries from before request contexts were kept). */
  request: ReceivedRequest | null;
  eventType: string | null;
  /** One line about the payload (PRODUCT.md §22), where the accept path parsed it; else null. */
  summary?: string | null;
  /** Replays re-evaluate a stored payload on purpose, so they skip the duplicate check. */
  replayOf?: string;
  /** A hash of the signature when it signs a timestamp: a second dedupe key (signature-claims.ts). */
  signatureKey?: string;
}

export type AcceptOutcome =
  | { label: 'Accepted'; deliveryId: string; runIds: string[] }
  | { label: 'Duplicate'; deliveryId: string; duplicateOf: string };

export type RejectedLabel = Exclude<DeliveryLabel, 'Accepted' | 'Duplicate'>;

export interface RejectionItem {
  id: string;
  webhookUid: string;
  receivedAt: number;
  size: number;
  label: RejectedLabel;
  reason: string;
  clientAddress: string | null;
  /** What the request claimed to be, where that is known without trusting it (metadata only). */
  identity: string | null;
  identitySource: IdentitySource | null;
  request: ReceivedRequest;
  eventType: string | null;
}

/** What listeners hear once a batch is on disk: the log entry as the API shows it. */
export type CommittedDelivery = DeliveryRecord;

export type BatchItem =
  { kind: 'accept'; item: AcceptItem } | { kind: 'reject'; item: RejectionItem };

/** An item no transaction could write, while the rest of its batch was written without it. */
export interface ItemFailure {
  /** Its place in the batch. */
  index: number;
  id: string;
  /** What the store said, for the relay's own log. */
  message: string;
}

export interface BatchResult {
  /** One per `accept` item written, in batch order (a failed item has none). */
  outcomes: AcceptOutcome[];
  /** One per item written, in batch order. */
  committed: CommittedDelivery[];
  /** The items that failed alone (see `oneByOne`); absent when every item was written. */
  failed?: ItemFailure[];
}

export interface DeliveryBatchStore {
  /**
   * Writes the whole batch in one transaction: every delivery row, payload, dedupe key and run.
   * Resolves only once that transaction is durable; rejects if nothing of it was written. A
   * store may instead answer with some items `failed`: one bad item never fails the others.
   */
  commit(batch: BatchItem[]): Promise<BatchResult>;
  /**
   * How many commits may usefully run at once (default 1): more than 1 only where each runs on a
   * connection of its own, so that one batch's round trips and fsync overlap the next one's.
   */
  readonly commitsInFlight?: number;
  /** The most items one commit takes (default: all that are queued); the rest form the next. */
  readonly maxBatchItems?: number;
}

/** The log entry's fields that come straight from an accept item, whatever it is labelled. */
export function entryBase(item: AcceptItem) {
  return {
    id: item.id,
    webhookUid: item.webhookUid,
    size: item.body.length,
    receivedAt: item.receivedAt,
    identity: item.identity,
    identitySource: item.identitySource,
    clientAddress: item.clientAddress,
    replayOf: item.replayOf ?? null,
    eventType: item.eventType,
    summary: item.summary ?? null,
  };
}

/**
 * `store` with `after` called once each commit has succeeded (to time it, or to wake someone up),
 * given the result and when the commit began; every other property, such as how many commits it
 * takes at once and how large a batch, carried over as it is.
 */
export function afterEachCommit(
  store: DeliveryBatchStore,
  after: (result: BatchResult, startedMs: number) => void,
): DeliveryBatchStore {
  return {
    ...store,
    // Not an async function: its frame would hold the batch, bodies and all, until the commit ends.
    commit: (batch) => {
      const started = performance.now();
      return store.commit(batch).then((result) => {
        after(result, started);
        return result;
      });
    },
  };
}

/** One item's own commit: its result, or why it failed. */
type Alone = BatchResult | { error: unknown };

/**
 * The batch written one item per transaction, after its one transaction failed: an item the
 * store refuses (a value no column takes) then fails alone, and every other is written, in batch
 * order (so identities are decided as they would have been). `commitOne` writes a batch of one.
 */
export async function oneByOne(
  batch: BatchItem[],
  commitOne: (pending: BatchItem) => Promise<BatchResult>,
): Promise<BatchResult> {
  const each: Alone[] = [];
  for (const pending of batch)
    each.push(await commitOne(pending).catch((error: unknown) => ({ error })));
  return merged(batch, each);
}

/** `oneByOne` for a store whose transactions are synchronous (SQLite, on its thread). */
export function oneByOneNow(
  batch: BatchItem[],
  commitOne: (pending: BatchItem) => BatchResult,
): BatchResult {
  return merged(
    batch,
    batch.map((pending): Alone => {
      try {
        return commitOne(pending);
      } catch (error) {
        return { error };
      }
    }),
  );
}

function merged(batch: BatchItem[], each: Alone[]): BatchResult {
  const result: Required<BatchResult> = { outcomes: [], committed: [], failed: [] };
  each.forEach((alone, index) => {
    if ('error' in alone) {
      const message = alone.error instanceof Error ? alone.error.message : String(alone.error);
      result.failed.push({ index, id: batch[index]!.item.id, message });
      return;
    }
    result.outcomes.push(...alone.outcomes);
    result.committed.push(...alone.committed);
  });
  return result;
}
