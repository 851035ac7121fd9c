import type { Role } from '../../shared/contract/index.js';
import type { AlarmNotification } from '../../shared/contract/alarms.js';
import type { ExecutorConfig } from '../../shared/contract/executors.js';
import type { Attempt } from '../../shared/contract/forwarding.js';

/**
 * What a `view` token (a dashboard's, a Prometheus scrape's) may read of settings that can carry
 * credentials (issue 24): a Slack or Discord webhook URL is a capability, and so may be a path or
 * query of any URL, or a command's argument. `view` sees the scheme and host, and that the rest
 * is hidden; `manage` sees everything, as it can change it.
 */

/** Marks the hidden part: after the host of a URL, in place of each argument. */
export const REDACTED_MARK = '…[redacted]';
export const REDACTED_ARGUMENT = '[redacted]';

/** `https://hooks.slack.com/…[redacted]`: still a URL (the contract's shape), the path and query gone. */
export function redactedUrl(text: string): string {
  const url = new URL(text);
  return `${url.protocol}//${url.host}/${REDACTED_MARK}`;
}

const redactedArgs = (args: string[]): string[] => args.map(() => REDACTED_ARGUMENT);

export function executorFor(role: Role, executor: ExecutorConfig): ExecutorConfig {
  if (role === 'manage') return executor;
  switch (executor.kind) {
    case 'http':
      return { ...executor, url: redactedUrl(executor.url) };
    case 'command':
      return { ...executor, args: redactedArgs(executor.args) };
    default:
      return executor;
  }
}

export function notificationFor(
  role: Role,
  notification: AlarmNotification | null,
): AlarmNotification | null {
  if (role === 'manage' || notification === null) return notification;
  return notification.kind === 'http'
    ? { ...notification, url: redactedUrl(notification.url) }
    : { ...notification, args: redactedArgs(notification.args) };
}

/** A forward's target may be a capability too (a handler's secret path, a `?token=`). */
export function attemptFor(role: Role, attempt: Attempt): Attempt {
  return role === 'manage' ? attempt : { ...attempt, url: redactedUrl(attempt.url) };
}
