import { gitlab as provider } from '../../../shared/providers/gitlab.js';
import { randomUUID } from 'node:crypto';
import { constantTimeEqual } from '../../crypto/constant-time.js';
import type { SignatureScheme } from './scheme.js';
import { optionalHeader, requireHeader } from './headers.js';
import { fail, requireSecret, SigningError, toVerdict } from './verification.js';
import {
  at,
  counted,
  genericSummary,
  oneLine,
  type Payload,
  text,
} from './summaries/summary-text.js';

/**
 * GitLab (docs.gitlab.com, "Webhooks" → secret token): the secret is sent as is in
 * `X-Gitlab-Token`. Nothing is signed: the token proves the sender, not the body, and there is
 * no timestamp. Delivery: `Idempotency-Key`, which GitLab keeps when it resends a delivery
 * (`X-Gitlab-Event-UUID` is new on every attempt, so a resend would run automations twice).
 */

const TOKEN_HEADER = 'X-Gitlab-Token';
const DELIVERY_HEADER = 'Idempotency-Key';
const EVENT_HEADER = 'X-Gitlab-Event';
const EVENT_UUID_HEADER = 'X-Gitlab-Event-UUID';

/**
 * GitLab (docs.gitlab.com, "Webhook events"): `object_kind`, the project's
 * `path_with_namespace`, and for merge requests and issues `object_attributes` with `iid`,
 * `title` and `action`; a push has `ref` and `total_commits_count`.
 */
function gitlabSummary(eventType: string | null, payload: Payload): string | null {
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

export const gitlab: SignatureScheme = {
  name: provider.name,
  deliveryIdHeader: DELIVERY_HEADER.toLowerCase(),
  summarize: gitlabSummary,
  eventHeaders: (event) => ({ [EVENT_HEADER]: event }),
  verify: ({ headers, secret }) =>
    toVerdict(() => {
      requireSecret(secret);
      const token = requireHeader(headers, TOKEN_HEADER);
      const deliveryId = optionalHeader(headers, DELIVERY_HEADER);
      if (!constantTimeEqual(token, secret)) fail('token mismatch');
      return deliveryId;
    }),
  sign: ({ secret, id }) => {
    if (secret === '') throw new SigningError('no signing secret configured');
    // Each attempt has its own event UUID; the idempotency key is what stays across resends.
    return { [TOKEN_HEADER]: secret, [EVENT_UUID_HEADER]: randomUUID(), [DELIVERY_HEADER]: id };
  },
};
