import type { Context } from 'koa';
import { newDeliveryId } from '../ids.js';
import type { RejectedLabel } from '../store/delivery-batch.js';
import { logDelivery } from './delivery-line.js';
import type { Attempt } from './ingress-deps.js';
import { MAX_BODY_BYTES } from './limits.js';
import { replyError } from './reply.js';
import { deliveryEventType } from './steps/event-type.js';
import { deliveryIdentity, headerIdentity, type DeliveryIdentity } from './steps/identity.js';

/** The ways a POST ends without a 202: each says what the sender needs and logs what the operator needs. */

export function declaredSize(ctx: Context): number {
  const declared = Number(ctx.get('content-length'));
  return Number.isSafeInteger(declared) ? declared : 0;
}

/** A failed credential is logged until the (webhook, address) budget is spent; then 429, unlogged. */
export function rejectAuth(
  attempt: Attempt,
  reason: string,
  size: number,
  body: Buffer | null,
): void {
  const { deps, ctx, webhook, client, receivedAt } = attempt;
  const key = `${webhook.uid} ${client}`;
  const wait = deps.failedAuth.retryAfter(key, receivedAt);
  // The body may still be arriving; it is not wanted, so the connection is not kept.
  ctx.set('Connection', 'close');
  if (wait > 0) {
    return refuseTooMany(
      attempt,
      'failed-authentication budget spent',
      'Too many failed authentication attempts.',
      wait,
    );
  }

  deps.failedAuth.record(key, receivedAt);
  rejectWithLog(attempt, 401, 'unauthorized', 'Rejected (auth)', reason, size, body);
}

export function rejectTooLarge(attempt: Attempt, size: number): void {
  attempt.ctx.set('Connection', 'close');
  rejectWithLog(
    attempt,
    413,
    'payload_too_large',
    'Rejected (too large)',
    `body exceeds ${MAX_BODY_BYTES} bytes`,
    size,
    null,
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
): void {
  const { deps, ctx, webhook, client, receivedAt } = attempt;
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
    request: attempt.request,
    // The body of a refused request is never parsed: only a header can name its event here.
    eventType: deliveryEventType(webhook, ctx.req.headersDistinct, undefined),
  });
  logDelivery(deps.log, status, label, webhook.uid, id, size, reason, client);
  // Auth failures do not tell the sender which check failed; the operator reads it in the log.
  const message =
    code === 'unauthorized'
      ? 'Authentication failed for this webhook.'
      : `${reason.charAt(0).toUpperCase()}${reason.slice(1)}.`;
  replyError(ctx, status, code, message);
}

/**
 * What a refused request said it was, for the operator tracing a sender's retries: the same
 * order as for accepted deliveries, with the provider's header taken as an unverified claim.
 */
function claimedIdentity(attempt: Attempt, body: Buffer | null): DeliveryIdentity | null {
  const { ctx, webhook, deps } = attempt;
  const headers = ctx.req.headersDistinct;
  if (body === null) return headerIdentity(headers, webhook.deliveryIdHeader);
  const providerHeader = webhook.signatureScheme
    ? deps.schemes(webhook.signatureScheme).deliveryIdHeader
    : null;
  const providerClaim = providerHeader ? (headers[providerHeader]?.[0] ?? null) : null;
  return deliveryIdentity(headers, body, webhook.deliveryIdHeader, providerClaim);
}

/** 429: counted, not logged one by one, and never a log entry (PRODUCT.md §3). */
export function refuseTooMany(attempt: Attempt, why: string, message: string, wait: number): void {
  attempt.deps.refusals.add(429, why);
  replyError(attempt.ctx, 429, 'rate_limited', `${message} Retry after ${wait} s.`, {
    'Retry-After': String(wait),
  });
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
  attempt.ctx.respond = false;
}
