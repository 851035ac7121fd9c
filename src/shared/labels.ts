/** The seed's delivery log labels, exactly as it spells them (seed §2.2, §7). */
export const DELIVERY_LABELS = [
  'Accepted',
  'Duplicate',
  'Rejected (auth)',
  'Rejected (invalid JSON)',
  'Rejected (too large)',
] as const;

export type DeliveryLabel = (typeof DELIVERY_LABELS)[number];
