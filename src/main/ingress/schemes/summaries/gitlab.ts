import { at, counted, genericSummary, oneLine, text, type Payload } from './summary-text.js';

/**
 * GitLab (docs.gitlab.com, "Webhook events"): `object_kind`, the project's
 * `path_with_namespace`, and for merge requests and issues `object_attributes` with `iid`,
 * `title` and `action`; a push has `ref` and `total_commits_count`.
 */
export function gitlabSummary(eventType: string | null, payload: Payload): string | null {
  const kind = text(payload, 'object_kind');
  const project = text(payload, 'project', 'path_with_namespace') ?? '';
  if (kind === 'merge_request' || kind === 'issue') {
    const iid = text(payload, 'object_attributes', 'iid');
    const title = text(payload, 'object_attributes', 'title') ?? '';
    const action = text(payload, 'object_attributes', 'action') ?? kind;
    if (iid !== undefined) {
      return oneLine(`${project} ${kind === 'issue' ? '#' : '!'}${iid} ${action}: ${title}`);
    }
  }
  if (kind === 'push' || kind === 'tag_push') {
    const count = at(payload, 'total_commits_count');
    const branch = text(payload, 'ref')?.replace(/^refs\/(heads|tags)\//, '');
    if (typeof count === 'number' && branch !== undefined) {
      return oneLine(`${project} push ${counted(count, 'commit')} to ${branch}`);
    }
  }
  if (kind === 'pipeline') {
    const status = text(payload, 'object_attributes', 'status');
    const ref = text(payload, 'object_attributes', 'ref');
    return oneLine(`${project} pipeline ${status ?? ''}${ref === undefined ? '' : ` on ${ref}`}`);
  }
  return genericSummary(eventType, payload);
}
