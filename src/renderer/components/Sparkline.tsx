import type { ReactNode } from 'react';
import type { LabelCounts } from '../../shared/contract/deliveries.js';
import { DELIVERY_LABELS, type DeliveryLabel } from '../../shared/labels.js';
import { formatCount } from './format.js';
import { labelClass } from './LabelBadge.js';
import './sparkline.css';

const BAR_WIDTH = 4;
const HEIGHT = 22;

const total = (hour: LabelCounts): number =>
  DELIVERY_LABELS.reduce((sum, label) => sum + hour[label], 0);

function describe(counts: LabelCounts): string {
  return DELIVERY_LABELS.filter((label) => counts[label] > 0)
    .map((label) => `${formatCount(counts[label])} ${label}`)
    .join(', ');
}

/** "12 deliveries in 24 h: 10 Accepted, 2 Rejected (auth)": what the bars say, in words. */
export function activitySummary(hours: LabelCounts[]): string {
  const sums = Object.fromEntries(
    DELIVERY_LABELS.map((label) => [label, hours.reduce((sum, hour) => sum + hour[label], 0)]),
  ) as Record<DeliveryLabel, number>;
  const count = total(sums);
  if (count === 0) return `No deliveries in ${hours.length} h`;
  return `${formatCount(count)} ${count === 1 ? 'delivery' : 'deliveries'} in ${hours.length} h: ${describe(sums)}`;
}

/**
 * Hourly stacked bars, one colour per label (the same as the label badges). The picture is for
 * the eye; its name carries the numbers, and each bar names its hour on hover.
 */
export function Sparkline({
  hours,
  since,
}: {
  /** Oldest first, one entry per clock hour. */
  hours: LabelCounts[];
  /** Start of the first hour (ISO). */
  since: string;
}): ReactNode {
  const peak = Math.max(1, ...hours.map(total));
  const start = Date.parse(since);
  const summary = activitySummary(hours);
  return (
    <svg
      className="sparkline"
      role="img"
      aria-label={summary}
      width={hours.length * BAR_WIDTH}
      height={HEIGHT}
      viewBox={`0 0 ${hours.length * BAR_WIDTH} ${HEIGHT}`}
    >
      <title>{summary}</title>
      {hours.map((hour, index) => {
        const x = index * BAR_WIDTH;
        const count = total(hour);
        const at = new Date(start + index * 3_600_000).toLocaleTimeString(undefined, {
          hour: '2-digit',
          minute: '2-digit',
          hour12: false,
        });
        let y = HEIGHT;
        return (
          <g key={index}>
            <title>{count === 0 ? `${at}: none` : `${at}: ${describe(hour)}`}</title>
            <rect className="spark-slot" x={x} y={0} width={BAR_WIDTH} height={HEIGHT} />
            {count === 0 ? (
              <rect className="spark-none" x={x} y={HEIGHT - 1} width={BAR_WIDTH - 1} height={1} />
            ) : (
              DELIVERY_LABELS.filter((label) => hour[label] > 0).map((label) => {
                const height = Math.max(1.5, (hour[label] / peak) * (HEIGHT - 1));
                y -= height;
                return (
                  <rect
                    key={label}
                    className={`spark-bar spark-${labelClass(label)}`}
                    x={x}
                    y={y}
                    width={BAR_WIDTH - 1}
                    height={height}
                  />
                );
              })
            )}
          </g>
        );
      })}
    </svg>
  );
}
