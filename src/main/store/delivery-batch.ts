import { performance } from 'node:perf_hooks';
import type { DeliveryLabel } from '../../shared/labels.js';
import type { DeliveryRecord, IdentitySource } from './deliveries-repo.js';

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
  request: RequestContext | null;
  eventType: string | null;
  /** One line about the payload (PRODUCT.md §22), where the accept path parsed it; else null. */
  summary?: string | null;
  /** Replays re-evaluate a stored payload on purpose, so they skip the duplicate check. */
  replayOf?: string;
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
  request: RequestContext;
  eventType: string | null;
}

/** What listeners hear once a batch is on disk: the log entry as the API shows it. */
export type CommittedDelivery = DeliveryRecord;

export type BatchItem =
  { kind: 'accept'; item: AcceptItem } | { kind: 'reject'; item: RejectionItem };

export interface BatchResult {
  /** One per `accept` item, in batch order. */
  outcomes: AcceptOutcome[];
  /** One per item, in batch order. */
  committed: CommittedDelivery[];
}

export interface DeliveryBatchStore {
  /**
   * Writes the whole batch in one transaction: every delivery row, payload, dedupe key and run.
   * Resolves only once that transaction is durable; rejects if nothing of it was written.
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
