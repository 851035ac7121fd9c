import type { DeliveryRecord } from './deliveries.js';
import {
  entryBase,
  type AcceptItem,
  type AcceptOutcome,
  type BatchItem,
  type BatchResult,
  type ItemFailure,
  type RejectionItem,
} from './delivery-batch.js';

/** What a store decided for one accept item: written Accepted, or a Duplicate of an earlier one. */
export type AcceptDecision = { label: 'Accepted' } | { label: 'Duplicate'; duplicateOf: string };

/** The reason an accepted replay is logged with (null for a first delivery). */
export function replayReason(replayOf: string | undefined): string | null {
  return replayOf ? `replay of ${replayOf} (duplicate check skipped on purpose)` : null;
}

/** The outcome of an accept item and the log row it is written as, once its store has decided. */
export function acceptedRecord(
  item: AcceptItem,
  decision: AcceptDecision,
): { outcome: AcceptOutcome; row: DeliveryRecord } {
  const base = entryBase(item);
  if (decision.label === 'Duplicate') {
    const { duplicateOf } = decision;
    return {
      outcome: { label: 'Duplicate', deliveryId: item.id, duplicateOf },
      // Metadata only, as for its payload.
      row: { ...base, label: 'Duplicate', reason: null, summary: null, duplicateOf, runIds: [] },
    };
  }
  const runIds = item.runs.map((r) => r.id);
  return {
    outcome: { label: 'Accepted', deliveryId: item.id, runIds },
    row: {
      ...base,
      label: 'Accepted',
      reason: replayReason(item.replayOf),
      duplicateOf: null,
      runIds,
    },
  };
}

/** The log row of a refused request: as it came, with nothing decided. */
export function rejectedRecord(item: RejectionItem): DeliveryRecord {
  const { request: _request, ...entry } = item;
  return { ...entry, duplicateOf: null, replayOf: null, summary: null, runIds: [] };
}

/**
 * What a store decided for a batch, without the rows it wrote: all a writer thread sends back
 * (the main thread rebuilds the rows from the items it sent: `recordsOf`), so that no log row
 * is cloned across threads per delivery.
 */
export interface BatchDecisions {
  /** In batch order: an accept item's decision; null for a reject item or a failed one. */
  decisions: (AcceptDecision | null)[];
  /** The items that failed alone, as `BatchResult.failed`; absent when every item was written. */
  failed?: ItemFailure[];
}

/**
 * A batch's outcomes and committed log rows, from what the store decided for each of its accept
 * items (`decisions` in batch order; a reject item's entry is ignored). Items in `failed` were
 * not written: they have neither.
 */
export function recordsOf(
  batch: readonly BatchItem[],
  decisions: readonly (AcceptDecision | null)[],
  failed?: readonly ItemFailure[],
): BatchResult {
  const outcomes: AcceptOutcome[] = [];
  const committed: DeliveryRecord[] = [];
  let nextFailed = 0;
  batch.forEach((pending, i) => {
    if (failed?.[nextFailed]?.index === i) {
      nextFailed++;
      return;
    }
    if (pending.kind === 'reject') {
      committed.push(rejectedRecord(pending.item));
      return;
    }
    const decision = decisions[i];
    if (!decision) throw new Error(`delivery ${pending.item.id} was not decided`);
    const { outcome, row } = acceptedRecord(pending.item, decision);
    outcomes.push(outcome);
    committed.push(row);
  });
  return failed && failed.length > 0
    ? { outcomes, committed, failed: [...failed] }
    : { outcomes, committed };
}
