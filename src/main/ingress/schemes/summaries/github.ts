import {
  at,
  counted,
  genericSummary,
  joined,
  oneLine,
  text,
  type Payload,
} from './summary-text.js';

/**
 * GitHub (docs.github.com, "Webhook events and payloads"): the event is `X-GitHub-Event`, which
 * the event type starts with (`pull_request.opened`); pull requests and issues carry `number`
 * and `title`, a push its `ref` and `commits`.
 */
export function githubSummary(eventType: string | null, payload: Payload): string | null {
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
