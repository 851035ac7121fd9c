import type { Delivery } from './types.js';

/** What a row says after its time: the original of a duplicate, or why it was refused. */
export function deliveryNote(delivery: Delivery): string | null {
  if (delivery.duplicateOf) return `(of ${delivery.duplicateOf})`;
  if (delivery.reason)
    return delivery.label === 'Accepted' ? delivery.reason : `reason: ${delivery.reason}`;
  return null;
}
