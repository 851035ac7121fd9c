import type { ReactNode } from 'react';
import type { LabelCounts } from '../../shared/contract/deliveries.js';
import { DELIVERY_LABELS, type DeliveryLabel } from '../../shared/labels.js';
import { formatCount, formatShare } from './format.js';
import { labelClass } from './LabelBadge.js';
import './sparkline.css';
import './volume-chart.css';

const BAR = 10;
const VOLUME_HEIGHT = 80;
const REJECTED_HEIGHT = 26;
/** Even one rejection among thousands is a bar you can see. */
const MIN_BAR = 2.5;

const REJECTED: readonly DeliveryLabel[] = DELIVERY_LABELS.filter((l) => l.startsWith('Rejected'));
const sumOf = (bucket: LabelCounts, labels: readonly DeliveryLabel[]): number =>
  labels.reduce((sum, label) => sum + bucket[label], 0);

function bucketTitle(start: number, minutes: number, bucket: LabelCounts): string {
  const from = new Date(start);
  const to = new Date(start + minutes * 60_000);
  const time = (d: Date): string =>
    d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', hour12: false });
  const day = minutes >= 24 * 60 || from.toDateString() !== new Date().toDateString();
  const when = `${day ? `${from.toLocaleDateString(undefined, { month: 'short', day: 'numeric' })} ` : ''}${time(from)}–${time(to)}`;
  const parts = DELIVERY_LABELS.filter((l) => bucket[l] > 0).map(
    (l) => `${formatCount(bucket[l])} ${l}`,
  );
  return `${when}: ${parts.length === 0 ? 'none' : parts.join(', ')}`;
}

/**
 * A webhook's volume by label (stacked bars, one colour per label as the badges) and, on a scale
 * of its own beneath, the rejections: 44 rejected among 21,000 still draw bars you can see, and
 * the line above says the share in numbers.
 */
export function VolumeChart({
  buckets,
  since,
  bucketMinutes,
  rangeText,
}: {
  buckets: LabelCounts[];
  since: string;
  bucketMinutes: number;
  /** "24 h", "7 days". */
  rangeText: string;
}): ReactNode {
  const start = Date.parse(since);
  const totals = buckets.map((b) => sumOf(b, DELIVERY_LABELS));
  const rejected = buckets.map((b) => sumOf(b, REJECTED));
  const total = totals.reduce((a, b) => a + b, 0);
  const rejectedTotal = rejected.reduce((a, b) => a + b, 0);
  const peak = Math.max(1, ...totals);
  const rejectedPeak = Math.max(1, ...rejected);
  const width = buckets.length * BAR;
  const summary =
    total === 0
      ? `No deliveries in ${rangeText}`
      : `${formatCount(total)} ${total === 1 ? 'delivery' : 'deliveries'} in ${rangeText}; ${formatCount(rejectedTotal)} rejected (${formatShare(rejectedTotal, total)})`;
  const perBucket = bucketMinutes === 60 ? 'an hour' : `${bucketMinutes / 60} hours`;

  return (
    <figure className="volume-chart">
      <figcaption className="volume-summary">{summary}</figcaption>
      <svg
        role="img"
        aria-label={`${summary}. Bars: deliveries per ${perBucket} by label; beneath, rejections on their own scale.`}
        viewBox={`0 0 ${width} ${VOLUME_HEIGHT + REJECTED_HEIGHT + 6}`}
        preserveAspectRatio="none"
        className="volume-svg"
      >
        {buckets.map((bucket, index) => {
          const x = index * BAR;
          let y = VOLUME_HEIGHT;
          const title = bucketTitle(start + index * bucketMinutes * 60_000, bucketMinutes, bucket);
          const failing = rejected[index]!;
          return (
            <g key={index}>
              <title>{title}</title>
              <rect
                className="volume-slot"
                x={x}
                y={0}
                width={BAR}
                height={VOLUME_HEIGHT + REJECTED_HEIGHT + 6}
              />
              {DELIVERY_LABELS.filter((label) => bucket[label] > 0).map((label) => {
                const height = Math.max(1, (bucket[label] / peak) * (VOLUME_HEIGHT - 2));
                y -= height;
                return (
                  <rect
                    key={label}
                    className={`spark-bar spark-${labelClass(label)}`}
                    x={x + 1}
                    y={y}
                    width={BAR - 2}
                    height={height}
                  />
                );
              })}
              {failing > 0 && (
                <rect
                  className="volume-rejected"
                  x={x + 1}
                  y={VOLUME_HEIGHT + 6}
                  width={BAR - 2}
                  height={Math.max(MIN_BAR, (failing / rejectedPeak) * REJECTED_HEIGHT)}
                />
              )}
            </g>
          );
        })}
        <line
          className="volume-axis"
          x1={0}
          x2={width}
          y1={VOLUME_HEIGHT + 3}
          y2={VOLUME_HEIGHT + 3}
        />
      </svg>
      <div className="volume-scale">
        <span>
          {new Date(start).toLocaleString(undefined, {
            month: 'short',
            day: 'numeric',
            hour: '2-digit',
            minute: '2-digit',
            hour12: false,
          })}
        </span>
        <span>
          {total > 0 &&
            `peak ${formatCount(peak)} per ${perBucket === 'an hour' ? 'hour' : perBucket}; rejected peak ${formatCount(rejectedTotal > 0 ? rejectedPeak : 0)}`}
        </span>
        <span>now</span>
      </div>
    </figure>
  );
}
