import { slack as provider } from '../../../shared/providers/slack.js';
import { defineHmacScheme } from './define-hmac-scheme.js';
import { requireHeader, withoutPrefix } from './headers.js';
import type { SignedContent } from './hmac.js';
import { parseUnixSeconds } from './timestamps.js';
import { genericSummary, oneLine, type Payload, text } from './summaries/summary-text.js';

/**
 * Slack ("Verifying requests from Slack", api.slack.com/authentication/verifying-requests-from-slack):
 * `X-Slack-Signature: v0=<hex>`, HMAC-SHA256 of `v0:${X-Slack-Request-Timestamp}:${body}` keyed
 * with the signing secret. Slack documents no delivery-ID header (retries only add
 * `X-Slack-Retry-Num`), so there is none.
 */

/** Slack: ignore a request whose timestamp is more than five minutes from local time. */
export const TOLERANCE_SECONDS = 5 * 60;

const SIGNATURE_HEADER = 'X-Slack-Signature';
const TIMESTAMP_HEADER = 'X-Slack-Request-Timestamp';
const VERSION = 'v0';

const signedContent = (timestamp: string, body: Buffer): SignedContent => [
  `${VERSION}:${timestamp}:`,
  body,
];

/**
 * Slack (api.slack.com/apis/events-api): an `event_callback` wraps `event` (`type`, `channel`,
 * `user`, `text`); `url_verification` is the endpoint check.
 */
function slackSummary(eventType: string | null, payload: Payload): string | null {
  if (text(payload, 'type') !== 'event_callback') return genericSummary(eventType, payload);
  const channel = text(payload, 'event', 'channel');
  const said = text(payload, 'event', 'text');
  const where = channel === undefined ? '' : ` in ${channel}`;
  return oneLine(`${eventType ?? 'event'}${where}${said === undefined ? '' : `: ${said}`}`);
}

export const slack = defineHmacScheme({
  provider,
  summarize: slackSummary,
  encoding: 'hex',
  toleranceSeconds: TOLERANCE_SECONDS,
  read({ headers, body }) {
    const timestamp = parseUnixSeconds(
      requireHeader(headers, TIMESTAMP_HEADER),
      `${TIMESTAMP_HEADER} header`,
    );
    const signature = withoutPrefix(
      requireHeader(headers, SIGNATURE_HEADER),
      `${VERSION}=`,
      SIGNATURE_HEADER,
    );
    return { candidates: [signature], content: signedContent(timestamp, body), timestamp };
  },
  write: ({ timestamp, body, sign }) => ({
    [TIMESTAMP_HEADER]: timestamp,
    [SIGNATURE_HEADER]: `${VERSION}=${sign(signedContent(timestamp, body))}`,
  }),
});
