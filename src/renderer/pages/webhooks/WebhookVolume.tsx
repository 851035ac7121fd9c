import { useState, type ReactNode } from 'react';
import type { VolumeRange } from '../../../shared/contract/deliveries.js';
import { AGGREGATE_RELOAD_MS, useCall } from '../../app/use-call.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { VolumeChart } from '../../components/VolumeChart.js';

const RANGE_TEXT: Record<VolumeRange, string> = { '24h': '24 h', '7d': '7 days' };

/** The webhook's volume over 24 h or 7 days, kept current as deliveries arrive. */
export function WebhookVolume({ uid }: { uid: string }): ReactNode {
  const [range, setRange] = useState<VolumeRange>('24h');
  const volume = useCall(
    'deliveries.volume',
    { uid, range },
    (event) => event.type === 'delivery' && event.delivery.webhookUid === uid,
    AGGREGATE_RELOAD_MS,
  );
  return (
    <section className="webhook-volume" aria-label="Volume">
      <div className="volume-header">
        <h3>Volume</h3>
        <div className="status-filter" role="group" aria-label="Chart range">
          {(Object.keys(RANGE_TEXT) as VolumeRange[]).map((r) => (
            <button
              key={r}
              type="button"
              className="chip"
              aria-pressed={range === r}
              onClick={() => setRange(r)}
            >
              {RANGE_TEXT[r]}
            </button>
          ))}
        </div>
      </div>
      <ErrorNote error={volume.error} />
      {volume.data && (
        <VolumeChart
          buckets={volume.data.buckets}
          since={volume.data.since}
          bucketMinutes={volume.data.bucketMinutes}
          rangeText={RANGE_TEXT[range]}
        />
      )}
    </section>
  );
}
