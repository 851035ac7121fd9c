import { github as provider } from '../../../shared/providers/github.js';
import { defineHmacScheme } from './define-hmac-scheme.js';
import { requireHeader, withoutPrefix } from './headers.js';
import { SigningError } from './verification.js';
import {
  at,
  counted,
  genericSummary,
  joined,
  oneLine,
  type Payload,
  text,
} from './summaries/summary-text.js';

/**
 * GitHub (docs.github.com, "Validating webhook deliveries"): `X-Hub-Signature-256: sha256=<hex>`,
 * HMAC-SHA256 of the body keyed with the secret. No signed timestamp. Delivery: `X-GitHub-Delivery`.
 */

const SIGNATURE_HEADER = 'X-Hub-Signature-256';
const PREFIX = 'sha256=';
const EVENT_HEADER = 'X-GitHub-Event';
const EVENT_NAME = /^[a-z0-9_]+$/;

/** GitHub names the event in a header and the action in the body's `action`. */
function eventHeaders(event: string): Record<string, string> {
  if (!EVENT_NAME.test(event)) {
    throw new SigningError(
      event.includes('.')
        ? `GitHub names the event in X-GitHub-Event ("${event.split('.')[0]}") and the action in the body's "action"`
        : 'GitHub event names are lower-case words joined by "_" (pull_request, issues, push)',
    );
  }
  return { [EVENT_HEADER]: event };
}

/**
 * GitHub (docs.github.com, "Webhook events and payloads"): the event is `X-GitHub-Event`, which
 * the event type starts with (`pull_request.opened`); pull requests and issues carry `number`
 * and `title`, a push its `ref` and `commits`.
 */
function githubSummary(eventType: string | null, payload: Payload): string | null {
  const repo = text(payload, 'repository', 'full_name');
  const event = eventType?.split('.')[0];
  const action = text(payload, 'action');
  const item =
    event === 'pull_request' || event?.startsWith('pull_request_review') === true
      ? 'pull_request'
      : event === 'issues' || event === 'issue_comment'
        ? 'issue'
        : null;
  if (item !== null) {
    const number = text(payload, item, 'number');
    const title = text(payload, item, 'title');
    if (number !== undefined) {
      return oneLine(`${joined(repo)} #${number} ${action ?? event}: ${title ?? ''}`);
    }
  }
  if (event === 'push') {
    const commits = at(payload, 'commits');
    const ref = text(payload, 'ref');
    const branch = ref?.replace(/^refs\/(heads|tags)\//, '');
    if (Array.isArray(commits) && branch !== undefined) {
      return oneLine(`${repo ?? ''} push ${counted(commits.length, 'commit')} to ${branch}`);
    }
  }
  if (repo !== undefined && eventType !== null) {
    const named =
      text(payload, 'release', 'name') ??
      text(payload, 'release', 'tag_name') ??
      text(payload, 'workflow_run', 'name') ??
      text(payload, 'check_run', 'name') ??
      text(payload, 'zen');
    return oneLine(`${repo} ${eventType}${named === undefined ? '' : `: ${named}`}`);
  }
  return genericSummary(eventType, payload);
}

export const github = defineHmacScheme({
  provider,
  summarize: githubSummary,
  eventHeaders,
  encoding: 'hex',
  toleranceSeconds: null,
  read: ({ headers, body }) => ({
    candidates: [withoutPrefix(requireHeader(headers, SIGNATURE_HEADER), PREFIX, SIGNATURE_HEADER)],
    content: [body],
    timestamp: null,
  }),
  write: ({ body, sign }) => ({ [SIGNATURE_HEADER]: PREFIX + sign([body]) }),
});
