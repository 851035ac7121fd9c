import type { LastWake } from '../../shared/contract/relay.js';

const pad = (n: number): string => String(n).padStart(2, '0');

/** "6 h 10 min", "12 min", "40 s" */
export function sleptText(seconds: number): string {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (hours > 0) return minutes > 0 ? `${hours} h ${minutes} min` : `${hours} h`;
  return minutes > 0 ? `${minutes} min` : `${seconds} s`;
}

/** §20's status line: "woke at 07:02 after 6 h 10 min asleep; recovered 3 deliveries". */
export function wakeText(wake: LastWake): string {
  const at = new Date(wake.at);
  const recovered = wake.recovered ?? 0;
  return `woke at ${pad(at.getHours())}:${pad(at.getMinutes())} after ${sleptText(wake.sleptSeconds)} asleep; recovered ${recovered} ${recovered === 1 ? 'delivery' : 'deliveries'}`;
}
