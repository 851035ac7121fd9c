import type { IncomingMessage } from 'node:http';
import { newDeliveryId } from '../ids.js';
import { describeError } from '../log.js';
import type { RejectedLabel } from '../store/delivery-batch.js';
import { logDelivery } from './delivery-line.js';
import type { Attempt, IngressDeps } from './ingress-deps.js';
import { MAX_BODY_BYTES } from './limits.js';
import type { RateGate } from './rate-gate.js';
import type { RefusalStatus } from './refusal-tally.js';
import { replyError } from './reply.js';
import { clientAddress } from './steps/client-address.js';
import { deliveryEventType } from './steps/event-type.js';
import { rawHeaderReader } from './steps/header-lines.js';
import { deliveryIdentity, headerIdentity, type DeliveryIdentity } from './steps/identity.js';
import { requestContext } from './steps/request-context.js';

/** The ways a request ends without a 202: each says what the sender needs and logs what the operator needs. */

export function declaredSize(req: IncomingMessage): number {
  const declared = Number(req.headers['content-length']);
  return Number.isSafeInteger(declared) ? declared : 0;
}

/**
 * A failed credential is logged until the (webhook, address) budget is spent; then 429, unlogged.
 * One `take` decides and counts, so two replicas sharing the budget cannot both spend its last
 * slot; on PostgreSQL it may be a round trip, hence the Promise.
 */
export function rejectAuth(
  attempt: Attempt,
  reason: string,
  size: number,
  body: Buffer | null,
): void | Promise<void> {
  const { deps, webhook, client, receivedAt } = attempt;
  return afterGate(attempt, deps.failedAuth, `${webhook.uid} ${client}`, receivedAt, (wait) => {
    // The body may still be arriving; it is not wanted, so the connection is not kept.
    const close = { Connection: 'close' };
    if (wait > 0) {
      return refuseTooMany(
        attempt,
        'failed-authentication budget spent',
        'Too many failed authentication attempts.',
        wait,
        close,
      );
    }
    rejectWithLog(attempt, 401, 'unauthorized', 'Rejected (auth)', reason, size, body, close);
  });
}

/**
 * Takes a slot of `gate` and goes on with the wait it answered: at once when the gate answers at
 * once (the in-memory limits), after the round trip when it cannot (the shared limits). A gate
 * that fails (the database is unreachable) is a 503 the sender retries, never a 202 past a limit.
 */
export function afterGate(
  attempt: Attempt,
  gate: RateGate,
  key: string,
  now: number,
  then: (wait: number) => void,
): void | Promise<void> {
  const wait = gate.take(key, now);
  if (typeof wait === 'number') return then(wait);
  return wait.then(then, (error: unknown) => unavailable(attempt, error));
}

/** 503 with Retry-After: the relay could not do its part now; nothing was recorded. */
export function unavailable(attempt: Attempt, error: unknown): void {
  attempt.deps.log.error(`[ingress] a shared limit could not be read: ${describeError(error)}`);
  if (attempt.res.headersSent) return;
  replyError(
    attempt.res,
    503,
    'unavailable',
    'The relay could not record this delivery. Retry later.',
    {
      'Retry-After': '5',
      Connection: 'close',
    },
  );
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
  const { deps, req, webhook, client, receivedAt } = attempt;
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
    request: requestContext(attempt),
    // The body of a refused request is never parsed: only a header can name its event here.
    eventType: deliveryEventType(webhook, rawHeaderReader(req), undefined),
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
  const header = rawHeaderReader(req);
  if (body === null) return headerIdentity(header, webhook.deliveryIdHeader);
  const providerHeader = webhook.signatureScheme
    ? deps.schemes(webhook.signatureScheme).deliveryIdHeader
    : null;
  const providerClaim = providerHeader ? (header(providerHeader.toLowerCase()) ?? null) : null;
  return deliveryIdentity(header, body, webhook.deliveryIdHeader, providerClaim);
}

/**
 * A 404, 405 or 429: kept among the newest refused requests and counted, never a log entry. Every
 * such refusal, answered before Koa (door.ts) or in it, goes through here.
 */
export function noteRefusal(
  req: IncomingMessage,
  deps: IngressDeps,
  status: RefusalStatus,
  reason: string,
  webhookUid: string | null,
  at: number = deps.now(),
  client: string = clientAddress(req, deps.trustProxy),
): void {
  deps.refusals.add({
    at,
    method: req.method ?? '',
    path: req.url ?? '/',
    status,
    reason,
    client,
    webhookUid,
  });
}

/** 429: counted, not logged one by one, and never a log entry (PRODUCT.md §3). */
export function refuseTooMany(
  attempt: Attempt,
  why: string,
  message: string,
  wait: number,
  headers: Record<string, string> = {},
): void {
  const { req, res, deps, webhook, receivedAt, client } = attempt;
  noteRefusal(req, deps, 429, why, webhook.uid, receivedAt, client);
  replyError(res, 429, 'rate_limited', `${message} Retry after ${wait} s.`, {
    ...headers,
    'Retry-After': String(wait),
  });
}

/** 429 for the webhook's delivery rate (step 6). */
export function refuseRate(attempt: Attempt, wait: number): void {
  const limit = attempt.deps.rateLimiter.limit;
  refuseTooMany(attempt, 'delivery rate limit', `More than ${limit} deliveries in a minute.`, wait);
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
