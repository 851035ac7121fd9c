import type { Attempt } from '../attempt.js';
import { noteRefusal } from '../refusals.js';
import { NOT_FOUND_MESSAGE, replyError } from '../reply.js';
import { matchIngressPath } from './match-path.js';
import type { Step, Verdict } from './step.js';

function notFound(attempt: Attempt, reason: string, webhookUid: string | null): Verdict {
  const { req, deps, receivedAt, client } = attempt;
  noteRefusal(req, deps, 404, reason, webhookUid, receivedAt, client);
  replyError(attempt.res, 404, 'not_found', NOT_FOUND_MESSAGE);
  return 'answered';
}

function notPost(attempt: Attempt, webhookUid: string | null): Verdict {
  const { req, deps, receivedAt, client } = attempt;
  noteRefusal(
    req,
    deps,
    405,
    `${req.method ?? ''} instead of POST`,
    webhookUid,
    receivedAt,
    client,
  );
  replyError(attempt.res, 405, 'method_not_allowed', 'Send deliveries with POST.', [
    'Allow',
    'POST',
  ]);
  return 'answered';
}

/**
 * PRODUCT §3 step 1, from the request line alone: the live webhook a POST is for, or 404 (an
 * unknown, disabled or deleted webhook, or not a webhook URL) or 405 (another method). Neither is
 * a log entry: a scanner's refusals cost little more than Node's HTTP parsing.
 */
export const resolveWebhook: Step = (attempt) => {
  const { req, deps } = attempt;
  // CONNECT names a host, not a path: refused for its method.
  if (req.method === 'CONNECT') return notPost(attempt, null);
  const target = matchIngressPath(req.url ?? '/');
  if (!target) return notFound(attempt, 'not a webhook URL', null);
  const webhook = deps.webhooks.get(target.uid);
  if (req.method !== 'POST') return notPost(attempt, webhook?.uid ?? null);
  if (!webhook || !webhook.enabled) {
    const why = webhook ? 'webhook is disabled' : 'no such webhook (unknown or deleted)';
    return notFound(attempt, why, webhook?.uid ?? null);
  }
  if (target.token !== null && webhook.authMode !== 'url_token') {
    return notFound(attempt, 'a token in the path of a webhook without URL tokens', webhook.uid);
  }
  attempt.webhook = webhook;
  attempt.target = target;
  attempt.secret = deps.secrets.cachedValue(webhook.factoryId, webhook.secretName);
  return 'pass';
};
