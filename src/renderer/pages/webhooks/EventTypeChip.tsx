import type { ReactNode } from 'react';

/** A delivery's event type (§13) as a chip; nothing when it is not known. */
export function EventTypeChip({ eventType }: { eventType: string | null }): ReactNode {
  if (eventType === null) return null;
  return (
    <span className="chip event-type-chip" title={`Event type: ${eventType}`}>
      {eventType}
    </span>
  );
}
