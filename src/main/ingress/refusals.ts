import type { IncomingMessage, ServerResponse } from 'node:http';
import { newDeliveryId } from '../ids.js';
import type { RejectedLabel } from '../store/delivery-batch.js';
import { logDelivery } from './delivery-line.js';
import type { Attempt, IngressDeps } from './ingress-deps.js';
import { MAX_BODY_BYTES } from './limits.js';
import type { Refusal } from './refusal-tally.js';
import { replyError, type IngressErrorCode } from './reply.js';
import { deliveryIdentity, headerIdentity, type DeliveryIdentity } from './steps/identity.js';

/** The ways a request ends without a 202: each says what the sender needs and logs what the operator needs. */

export function declaredSize(req: IncomingMessage): number {
  const declared = Number(req.headers['content-length']);
  return Number.isSafeInteger(declared) ? declared : 0;
}

/**
 * 404 and 405, and 429 below: refused without a log entry (PRODUCT §3), each through the
 * refusal hook with what the request said it was.
 */
export function refuse(
  deps: IngressDeps,
  req: IncomingMessage,
  res: ServerResponse,
  refusal: Pick<Refusal, 'status' | 'reason' | 'client' | 'webhookUid'>,
  answer: { code: IngressErrorCode; message: string; headers?: Record<string, string> },
): void {
  deps.refusals.add({ ...refusal, method: req.method ?? '', path: req.url ?? '' });
  replyError(res, refusal.status, answer.code, answer.message, answer.headers);
}

/** A failed credential is logged until the (webhook, address) budget is spent; then 429, unlogged. */
export function rejectAuth(
  attempt: Attempt,
  reason: string,
  size: number,
  body: Buffer | null,
): void {
  const { deps, webhook, client, receivedAt } = attempt;
  const key = `${webhook.uid} ${client}`;
  const wait = deps.failedAuth.retryAfter(key, receivedAt);
  if (wait > 0) {
    return refuseTooMany(
      attempt,
      'failed-authentication budget spent',
      'Too many failed authentication attempts.',
      wait,
      { Connection: 'close' },
    );
  }

  deps.failedAuth.record(key, receivedAt);
  // The body may still be arriving; it is not wanted, so the connection is not kept.
  rejectWithLog(attempt, 401, 'unauthorized', 'Rejected (auth)', reason, size, body, {
    Connection: 'close',
  });
}

export function rejectTooLarge(attempt: Attempt, size: number): void {
  rejectWithLog(
    attempt,
    413,
    'payload_too_large',
    'Rejected (too large)',
    `body exceeds ${MAX_BODY_BYTES} bytes`,
    size,
    null,
    { Connection: 'close' },
  );
}

export function rejectWithLog(
  attempt: Attempt,
  status: number,
  code: 'unauthorized' | 'invalid_json' | 'payload_too_large',
  label: RejectedLabel,
  reason: string,
  size: number,
  body: Buffer | null,
  headers: Record<string, string> = {},
): void {
  const { deps, webhook, client, receivedAt } = attempt;
  const id = newDeliveryId(receivedAt);
  const claimed = claimedIdentity(attempt, body);
  deps.writer.reject({
    id,
    webhookUid: webhook.uid,
    receivedAt,
    size,
    label,
    reason,
    clientAddress: client,
    identity: claimed?.identity ?? null,
    identitySource: claimed?.source ?? null,
  });
  logDelivery(deps.log, status, label, webhook.uid, id, size, reason, client);
  // Auth failures do not tell the sender which check failed; the operator reads it in the log.
  const message =
    code === 'unauthorized'
      ? 'Authentication failed for this webhook.'
      : `${reason.charAt(0).toUpperCase()}${reason.slice(1)}.`;
  replyError(attempt.res, status, code, message, headers);
}

/**
 * What a refused request said it was, for the operator tracing a sender's retries: the same
 * order as for accepted deliveries, with the provider's header taken as an unverified claim.
 */
function claimedIdentity(attempt: Attempt, body: Buffer | null): DeliveryIdentity | null {
  const { req, webhook, deps } = attempt;
  const headers = req.headersDistinct;
  if (body === null) return headerIdentity(headers, webhook.deliveryIdHeader);
  const providerHeader = webhook.signatureScheme
    ? deps.schemes(webhook.signatureScheme).deliveryIdHeader
    : null;
  const providerClaim = providerHeader ? (headers[providerHeader]?.[0] ?? null) : null;
  return deliveryIdentity(headers, body, webhook.deliveryIdHeader, providerClaim);
}

/** 429: counted, not logged one by one, and never a log entry (PRODUCT.md §3). */
export function refuseTooMany(
  attempt: Attempt,
  why: string,
  message: string,
  wait: number,
  headers: Record<string, string> = {},
): void {
  const { deps, req, res, client, webhook } = attempt;
  refuse(
    deps,
    req,
    res,
    { status: 429, reason: why, client, webhookUid: webhook.uid },
    {
      code: 'rate_limited',
      message: `${message} Retry after ${wait} s.`,
      headers: { ...headers, 'Retry-After': String(wait) },
    },
  );
}

/** The sender went away mid-body: nothing was promised, nothing is recorded. */
export function abandon(attempt: Attempt): void {
  logDelivery(
    attempt.deps.log,
    0,
    null,
    attempt.webhook.uid,
    null,
    null,
    'sender aborted the request',
    attempt.client,
  );
}
