import { genericSummary, oneLine, text, type Payload } from './summary-text.js';

/**
 * Slack (api.slack.com/apis/events-api): an `event_callback` wraps `event` (`type`, `channel`,
 * `user`, `text`); `url_verification` is the endpoint check.
 */
export function slackSummary(eventType: string | null, payload: Payload): string | null {
  if (text(payload, 'type') !== 'event_callback') return genericSummary(eventType, payload);
  const channel = text(payload, 'event', 'channel');
  const said = text(payload, 'event', 'text');
  const where = channel === undefined ? '' : ` in ${channel}`;
  return oneLine(`${eventType ?? 'event'}${where}${said === undefined ? '' : `: ${said}`}`);
}
