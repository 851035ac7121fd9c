import { PROVIDER_NAMES, type LinkKind } from '../../shared/contract/links.js';

const MINUTE_MS = 60_000;

/** "45 min", "6 h", "6 h 12 min", "2 days 3 h": a span as the operator reads it. */
export function spanText(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / MINUTE_MS));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours < 48) return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
  const days = Math.floor(hours / 24);
  const restHours = hours % 24;
  return restHours === 0 ? `${days} days` : `${days} days ${restHours} h`;
}

export function quietMessage(quietForMs: number, expectedEveryMinutes: number): string {
  return `No accepted delivery for ${spanText(quietForMs)}; expected at least one every ${spanText(expectedEveryMinutes * MINUTE_MS)}.`;
}

export function authMessage(streak: number): string {
  const newest =
    streak === 1
      ? 'The newest delivery was'
      : `The newest ${streak.toLocaleString('en-US')} deliveries were all`;
  return `${newest} Rejected (auth): the sender may be using an old or wrong secret.`;
}

export const quietRecovery = (quietForMs: number): string =>
  `Back to normal: an accepted delivery arrived after ${spanText(quietForMs)} without one.`;

export const AUTH_RECOVERY = 'Back to normal: a delivery got past authentication again.';
export const DISABLED_END = 'Alarm ended: the webhook was disabled.';
export const CADENCE_OFF_END = 'Alarm ended: the expected cadence was turned off.';
export const STREAK_OFF_END = 'Alarm ended: the Rejected (auth) alarm was turned off.';

/** A provider link's failed check, as an alarm says it: its first problem and how many more. */
export function linkAlarmMessage(kind: LinkKind, problems: readonly string[]): string {
  const provider = PROVIDER_NAMES[kind];
  const first = problems[0] ?? 'the check failed';
  const more =
    problems.length > 1
      ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})`
      : '';
  return `The ${provider} link's check found a problem: ${first}${more}`;
}

export const LINK_RECOVERY = "Back to normal: the provider link's check passed.";
