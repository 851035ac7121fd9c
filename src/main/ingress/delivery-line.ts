import type { DeliveryLabel } from '../../shared/labels.js';
import type { Logger } from '../log.js';
import type { AcceptOutcome } from '../store/delivery-batch.js';

/**
 * The relay's one line per delivery (PRODUCT §12): status, label, webhook, delivery ID, size,
 * sender and a note. Never a header or a body: tokens and signatures stay out of the log.
 */
export function logDelivery(
  log: Logger,
  status: number,
  label: DeliveryLabel | null,
  uid: string,
  deliveryId: string | null,
  size: number | null,
  note: string | null,
  client?: string,
): void {
  // One template per line: under load this runs once per delivery on the main thread.
  const from = client ? ` from ${client}` : '';
  const why = note ? ` (${note})` : '';
  log.info(
    `[ingress] ${status === 0 ? '---' : status} ${label ?? '-'} ${uid} ${deliveryId ?? '-'} ${size === null ? '-' : `${size}B`}${from}${why}`,
  );
}

export function describeOutcome(outcome: AcceptOutcome): string {
  if (outcome.label === 'Duplicate') return `duplicate of ${outcome.duplicateOf}`;
  return outcome.runIds.length > 0
    ? `${outcome.runIds.length} run(s) queued`
    : 'no automation matched';
}
