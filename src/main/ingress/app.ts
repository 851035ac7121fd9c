import Koa, { type Context } from 'koa';
import type { DeliveryLabel } from '../../shared/labels.js';
import { newDeliveryId, newRunId } from '../ids.js';
import { describeError, type Logger } from '../log.js';
import type {
  AcceptOutcome,
  DeliveryWriter,
  PlannedRun,
  RejectedLabel,
} from '../store/delivery-writer.js';
import type { WebhookRecord } from '../store/webhooks-repo.js';
import { MAX_BODY_BYTES } from './limits.js';
import type { RefusalTally } from './refusal-tally.js';
import { NOT_FOUND_MESSAGE, replyError } from './reply.js';
import type { SignatureScheme } from './schemes/scheme.js';
import type { SlidingWindowLimiter } from './sliding-window.js';
import { checkBearerToken, checkUrlToken } from './steps/check-token.js';
import { clientAddress } from './steps/client-address.js';
import { deliveryIdentity, headerIdentity, type DeliveryIdentity } from './steps/identity.js';
import { matchIngressPath, type IngressTarget } from './steps/match-path.js';
import { parseJsonBody } from './steps/parse-json.js';
import { readBody } from './steps/read-body.js';

/** Decides which automations a delivery starts; runs are written in the accept transaction. */
export type RunPlanner = (
  webhook: WebhookRecord,
  deliveryId: string,
  payload: unknown,
  newRunId: () => string,
) => PlannedRun[];

export interface IngressDeps {
  webhooks: { get(uid: string): WebhookRecord | undefined };
  secrets: { cachedValue(factoryId: string, name: string): string | undefined };
  schemes: (name: NonNullable<WebhookRecord['signatureScheme']>) => SignatureScheme;
  writer: Pick<DeliveryWriter, 'accept' | 'reject'>;
  planRuns: RunPlanner;
  rateLimiter: SlidingWindowLimiter;
  failedAuth: SlidingWindowLimiter;
  trustProxy: boolean;
  now: () => number;
  log: Logger;
  refusals: Pick<RefusalTally, 'add'>;
}

/** One POST as it moves through the steps. */
interface Attempt {
  ctx: Context;
  deps: IngressDeps;
  webhook: WebhookRecord;
  target: IngressTarget;
  client: string;
  receivedAt: number;
}

export function createIngressApp(deps: IngressDeps): Koa {
  const app = new Koa();
  app.silent = true;
  app.use(async (ctx) => {
    try {
      await handle(ctx, deps);
    } catch (error) {
      deps.log.error(`[ingress] could not record a delivery: ${describeError(error)}`);
      if (!ctx.headerSent) {
        replyError(
          ctx,
          503,
          'unavailable',
          'The relay could not record this delivery. Retry later.',
          {
            'Retry-After': '5',
          },
        );
      }
    }
  });
  return app;
}

async function handle(ctx: Context, deps: IngressDeps): Promise<void> {
  const rawUrl = ctx.req.url ?? '/';
  if (rawUrl === '/healthz') {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      return replyError(ctx, 405, 'method_not_allowed', 'Use GET.', { Allow: 'GET, HEAD' });
    }
    ctx.body = { ok: true };
    return;
  }
  const target = matchIngressPath(rawUrl);
  if (!target) return replyError(ctx, 404, 'not_found', NOT_FOUND_MESSAGE);
  if (ctx.method !== 'POST') {
    return replyError(ctx, 405, 'method_not_allowed', 'Send deliveries with POST.', {
      Allow: 'POST',
    });
  }
  const webhook = deps.webhooks.get(target.uid);
  const pathFitsMode = target.token === null || webhook?.authMode === 'url_token';
  if (!webhook || !webhook.enabled || !pathFitsMode) {
    deps.refusals.add(404, 'no such enabled webhook');
    return replyError(ctx, 404, 'not_found', NOT_FOUND_MESSAGE);
  }
  const attempt: Attempt = {
    ctx,
    deps,
    webhook,
    target,
    client: clientAddress(ctx.req, deps.trustProxy),
    receivedAt: deps.now(),
  };
  const secret = deps.secrets.cachedValue(webhook.factoryId, webhook.secretName);

  if (webhook.authMode !== 'signature') {
    const failure =
      secret === undefined
        ? 'the webhook secret is missing from the secret store'
        : webhook.authMode === 'token'
          ? checkBearerToken(ctx.get('authorization') || undefined, secret)
          : checkUrlToken(target.token, secret);
    if (failure) return rejectAuth(attempt, failure, declaredSize(ctx), null);
  }

  const read = await readBody(ctx.req, MAX_BODY_BYTES);
  if (read.kind === 'aborted') return abandon(attempt);
  if (read.kind === 'too-large') return rejectTooLarge(attempt, read.size);
  const body = read.body;

  let providerDeliveryId: string | null = null;
  if (webhook.authMode === 'signature') {
    const verdict =
      secret === undefined || webhook.signatureScheme === null
        ? ({
            ok: false,
            reason: 'the webhook signing secret is missing from the secret store',
          } as const)
        : deps.schemes(webhook.signatureScheme).verify({
            headers: ctx.req.headersDistinct,
            body,
            secret,
            now: attempt.receivedAt,
            options: webhook.signatureOptions,
          });
    if (!verdict.ok) return rejectAuth(attempt, verdict.reason, body.length, body);
    providerDeliveryId = verdict.deliveryId;
  }

  const wait = deps.rateLimiter.take(webhook.uid, attempt.receivedAt);
  if (wait > 0) {
    const limit = deps.rateLimiter.limit;
    return refuseTooMany(
      attempt,
      'delivery rate limit',
      `More than ${limit} deliveries in a minute.`,
      wait,
    );
  }

  const parsed = parseJsonBody(body);
  if (!parsed.ok)
    return rejectWithLog(
      attempt,
      400,
      'invalid_json',
      'Rejected (invalid JSON)',
      parsed.reason,
      body.length,
      body,
    );

  const id = newDeliveryId(attempt.receivedAt);
  const identity = deliveryIdentity(
    ctx.req.headersDistinct,
    body,
    webhook.deliveryIdHeader,
    providerDeliveryId,
  );
  const outcome = await deps.writer.accept({
    id,
    webhookUid: webhook.uid,
    receivedAt: attempt.receivedAt,
    body,
    identity: identity.identity,
    identitySource: identity.source,
    clientAddress: attempt.client,
    runs: deps.planRuns(webhook, id, parsed.value, () => newRunId(attempt.receivedAt)),
  });
  logLine(
    deps,
    202,
    outcome.label,
    webhook.uid,
    id,
    body.length,
    describeOutcome(outcome),
    attempt.client,
  );
  ctx.status = 202;
  ctx.body = { delivery_id: id };
}

function describeOutcome(outcome: AcceptOutcome): string | null {
  if (outcome.label === 'Duplicate') return `duplicate of ${outcome.duplicateOf}`;
  return outcome.runIds.length > 0
    ? `${outcome.runIds.length} run(s) queued`
    : 'no automation matched';
}

function declaredSize(ctx: Context): number {
  const declared = Number(ctx.get('content-length'));
  return Number.isSafeInteger(declared) ? declared : 0;
}

/** A failed credential is logged until the (webhook, address) budget is spent; then 429, unlogged. */
function rejectAuth(attempt: Attempt, reason: string, size: number, body: Buffer | null): void {
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

function rejectTooLarge(attempt: Attempt, size: number): void {
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

function rejectWithLog(
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
  });
  logLine(deps, status, label, webhook.uid, id, size, reason, client);
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
function refuseTooMany(attempt: Attempt, why: string, message: string, wait: number): void {
  attempt.deps.refusals.add(429, why);
  replyError(attempt.ctx, 429, 'rate_limited', `${message} Retry after ${wait} s.`, {
    'Retry-After': String(wait),
  });
}

/** The sender went away mid-body: nothing was promised, nothing is recorded. */
function abandon(attempt: Attempt): void {
  logLine(
    attempt.deps,
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

function logLine(
  deps: IngressDeps,
  status: number,
  label: DeliveryLabel | null,
  uid: string,
  deliveryId: string | null,
  size: number | null,
  note: string | null,
  client?: string,
): void {
  const parts = [
    '[ingress]',
    status === 0 ? '---' : String(status),
    label ?? '-',
    uid,
    deliveryId ?? '-',
    size === null ? '-' : `${size}B`,
    client ? `from ${client}` : '',
    note ? `(${note})` : '',
  ];
  deps.log.info(parts.filter(Boolean).join(' '));
}
