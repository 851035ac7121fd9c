import type { Delivery } from './types.js';

/** What a row says after its time: the original of a duplicate, or why it was refused. */
export function deliveryNote(delivery: Delivery): string | null {
  if (delivery.duplicateOf) return `(of ${delivery.duplicateOf})`;
  if (delivery.reason)
    return delivery.label === 'Accepted' ? delivery.reason : `reason: ${delivery.reason}`;
  return null;
}

/** Whether a row has anything after its time: an event type or a note (a line of its own when narrow). */
export const hasNote = (delivery: Delivery): boolean =>
  delivery.eventType !== null || delivery.summary !== null || deliveryNote(delivery) !== null;
