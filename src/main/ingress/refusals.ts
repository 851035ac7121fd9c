import type { IncomingMessage } from 'node:http';
import { newDeliveryId } from '../ids.js';
import type { RejectedLabel } from '../store/delivery-batch.js';
import { logDelivery } from './delivery-line.js';
import type { Attempt } from './attempt.js';
import type { IngressDeps } from './ingress-deps.js';
import { MAX_BODY_BYTES } from './limits.js';
import type { RateGate } from './rate-gate.js';
import type { RefusalStatus } from './refusal-tally.js';
import { replyError, type HeaderList } from './reply.js';
import { boundedHeaders } from './steps/bounded-headers.js';
import { budgetKey, clientAddress } from './steps/client-address.js';
import { declaredLength } from './steps/declared-length.js';
import { deliveryEventType } from './steps/event-type.js';
import { rawHeaderReader } from './steps/header-lines.js';
import { deliveryIdentity, headerIdentity, type DeliveryIdentity } from './steps/identity.js';
import { requestContext } from './steps/request-context.js';

/** The ways a request ends without a 202: each says what the sender needs and logs what the operator needs. */

/** The body may still be arriving; it is not wanted, so the connection is not kept. */
const CLOSE: HeaderList = ['Connection', 'close'];

/** The declared body size as a log entry keeps it: at most the limit + 1; 0 when none. */
export function declaredSize(req: IncomingMessage): number {
  const declared = declaredLength(req, MAX_BODY_BYTES);
  if (declared.kind === 'over') return MAX_BODY_BYTES + 1;
  return declared.kind === 'within' ? declared.bytes : 0;
}

/** A failed credential: logged within the unauthenticated budgets; then 429, unlogged. */
export function rejectAuth(
  attempt: Attempt,
  reason: string,
  size: number,
  body: Buffer | null,
): void | Promise<void> {
  return withinUnauthenticatedBudgets(attempt, () => {
    rejectWithLog(attempt, 401, 'unauthorized', 'Rejected (auth)', reason, size, body, CLOSE);
  });
}

/**
 * Every log entry written before the sender authenticated (a 401; a 413 on a signature webhook,
 * whose body was never read) spends a slot of the (webhook, client) budget, the client's IPv6
 * /64 counting as one, and of the webhook's own budget; past either, 429 and no entry, so an
 * anonymous flood fills neither the log nor the disk. One `take` decides and counts, so two
 * replicas sharing a budget cannot both spend its last slot; on PostgreSQL it may be a round
 * trip, hence the Promise.
 */
function withinUnauthenticatedBudgets(attempt: Attempt, write: () => void): void | Promise<void> {
  const { deps, webhook, client, receivedAt } = attempt;
  const clientKey = `${webhook.uid} ${budgetKey(client)}`;
  return afterGate(deps.failedAuth, clientKey, receivedAt, (wait) => {
    if (wait > 0) {
      const message = 'Too many failed authentication attempts.';
      return refuseTooMany(attempt, 'failed-authentication budget spent', message, wait, CLOSE);
    }
    return afterGate(deps.unauthenticated, webhook.uid, receivedAt, (webhookWait) => {
      if (webhookWait === 0) return write();
      const why = 'unauthenticated budget of the webhook spent';
      const message = 'Too many unauthenticated requests to this webhook.';
      refuseTooMany(attempt, why, message, webhookWait, CLOSE);
    });
  });
}

/**
 * Takes a slot of `gate` and goes on with the wait it answered: at once when the gate answers at
 * once (the in-memory limits), after the round trip when it cannot (the shared limits). A gate
 * that fails (the database is unreachable) fails the request: the flow's one error path (a 503
 * the sender retries, never a 202 past a limit).
 */
function afterGate(
  gate: RateGate,
  key: string,
  now: number,
  then: (wait: number) => void | Promise<void>,
): void | Promise<void> {
  const wait = gate.take(key, now);
  return typeof wait === 'number' ? then(wait) : wait.then(then);
}

/**
 * 413. `declared`: the Content-Length as sent, when that was past the limit (the entry's size is
 * then limit + 1, the declared value kept in its reason). On a signature webhook nobody has
 * authenticated yet, so it is budgeted as a 401 is.
 */
export function rejectTooLarge(
  attempt: Attempt,
  size: number,
  declared?: string,
): void | Promise<void> {
  const limit = `body exceeds ${MAX_BODY_BYTES} bytes`;
  const reason = declared === undefined ? limit : `${limit} (declared ${declared})`;
  const reject = (): void => {
    rejectWithLog(
      attempt,
      413,
      'payload_too_large',
      'Rejected (too large)',
      reason,
      size,
      null,
      CLOSE,
    );
  };
  if (attempt.webhook.authMode !== 'signature') return reject();
  return withinUnauthenticatedBudgets(attempt, reject);
}

export function rejectWithLog(
  attempt: Attempt,
  status: number,
  code: 'unauthorized' | 'invalid_json' | 'payload_too_large',
  label: RejectedLabel,
  reason: string,
  size: number,
  body: Buffer | null,
  headers: HeaderList = [],
): void {
  const { deps, req, webhook, client, receivedAt } = attempt;
  const id = newDeliveryId(receivedAt);
  const claimed = claimedIdentity(attempt, body);
  // Whoever sent it is unknown until a credential or signature held: its headers are kept tighter.
  const anonymous =
    code === 'unauthorized' || (code === 'payload_too_large' && webhook.authMode === 'signature');
  const { request, leftOut } = anonymous
    ? boundedHeaders(requestContext(attempt))
    : { request: requestContext(attempt), leftOut: 0 };
  // Past the limit a size says only that: a declared 1e19 fits neither a column nor the contract.
  const bounded = Math.min(Math.max(0, size), MAX_BODY_BYTES + 1);
  const kept = leftOut > 0 ? `${reason}; ${leftOut} bytes of headers not kept` : reason;
  deps.writer.reject({
    id,
    webhookUid: webhook.uid,
    receivedAt,
    size: bounded,
    label,
    reason: kept,
    clientAddress: client,
    identity: claimed?.identity ?? null,
    identitySource: claimed?.source ?? null,
    request,
    // The body of a refused request is never parsed: only a header can name its event here.
    eventType: deliveryEventType(webhook, rawHeaderReader(req), undefined),
  });
  logDelivery(deps.log, status, label, webhook.uid, id, bounded, reason, client);
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
 * such refusal goes through here.
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
  deps.refusals.note(at, req.method ?? '', req.url ?? '/', status, reason, client, webhookUid);
}

/** 429: counted, not logged one by one, and never a log entry (PRODUCT.md §3). */
export function refuseTooMany(
  attempt: Attempt,
  why: string,
  message: string,
  wait: number,
  headers: HeaderList = [],
): void {
  const { req, res, deps, webhook, receivedAt, client } = attempt;
  noteRefusal(req, deps, 429, why, webhook.uid, receivedAt, client);
  const seconds = String(wait);
  const all =
    headers.length === 0 ? ['Retry-After', seconds] : [...headers, 'Retry-After', seconds];
  replyError(res, 429, 'rate_limited', `${message} Retry after ${seconds} s.`, all);
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
