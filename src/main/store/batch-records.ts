import type { DeliveryRecord } from './deliveries.js';
import {
  entryBase,
  type AcceptItem,
  type AcceptOutcome,
  type BatchItem,
  type BatchResult,
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
 * A batch's outcomes and committed log rows, from what the store decided for each of its accept
 * items (`decisions` in batch order; a reject item's entry is ignored).
 */
export function recordsOf(
  batch: readonly BatchItem[],
  decisions: readonly (AcceptDecision | null)[],
): BatchResult {
  const outcomes: AcceptOutcome[] = [];
  const committed: DeliveryRecord[] = [];
  batch.forEach((pending, i) => {
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
  return { outcomes, committed };
}
