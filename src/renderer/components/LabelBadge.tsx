import type { ReactNode } from 'react';
import type { DeliveryLabel } from '../../shared/labels.js';

const CLASS_BY_LABEL: Record<DeliveryLabel, string> = {
  Accepted: 'badge-accepted',
  Duplicate: 'badge-duplicate',
  'Rejected (auth)': 'badge-rejected',
  'Rejected (invalid JSON)': 'badge-invalid',
  'Rejected (too large)': 'badge-large',
};

/** The seed's label, spelled out: colour helps, the text carries the meaning. */
export function LabelBadge({ label }: { label: DeliveryLabel }): ReactNode {
  return <span className={`badge ${CLASS_BY_LABEL[label]}`}>{label}</span>;
}

export const labelClass = (label: DeliveryLabel): string => CLASS_BY_LABEL[label];
