import Koa, { type Context } from 'koa';
import { newDeliveryId, newRunId } from '../ids.js';
import { describeError } from '../log.js';
import { describeOutcome, logDelivery } from './delivery-line.js';
import type { Attempt, IngressDeps } from './ingress-deps.js';
import { MAX_BODY_BYTES } from './limits.js';
import {
  abandon,
  declaredSize,
  refuseTooMany,
  rejectAuth,
  rejectTooLarge,
  rejectWithLog,
} from './refusals.js';
import { NOT_FOUND_MESSAGE, replyError, replyJson } from './reply.js';
import { checkBearerToken, checkUrlToken } from './steps/check-token.js';
import { clientAddress } from './steps/client-address.js';
import { deliveryEventType } from './steps/event-type.js';
import { deliveryIdentity } from './steps/identity.js';
import { matchIngressPath } from './steps/match-path.js';
import { parseJsonBody } from './steps/parse-json.js';
import { readBody } from './steps/read-body.js';
import { requestContext } from './steps/request-context.js';

export type { IngressDeps, RunPlanner } from './ingress-deps.js';

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
  // Health checkers may add a query string (a cache buster); it does not matter here.
  if (rawUrl === '/healthz' || rawUrl.startsWith('/healthz?')) {
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
    request: requestContext(ctx.req, target, webhook),
  };
  const secret = deps.secrets.cachedValue(webhook.factoryId, webhook.secretName);

  if (webhook.authMode !== 'signature') {
    const failure =
      secret === undefined
        ? 'the webhook secret is missing from the secret store'
        : webhook.authMode === 'token'
          ? checkBearerToken(ctx.req.headersDistinct.authorization, secret)
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
  const headers = ctx.req.headersDistinct;
  const identity = deliveryIdentity(headers, body, webhook.deliveryIdHeader, providerDeliveryId);
  const eventType = deliveryEventType(webhook, headers, parsed.value);
  const outcome = await deps.writer.accept({
    id,
    webhookUid: webhook.uid,
    receivedAt: attempt.receivedAt,
    body,
    identity: identity.identity,
    identitySource: identity.source,
    clientAddress: attempt.client,
    runs: deps.planRuns(webhook, id, parsed.value, () => newRunId(attempt.receivedAt), {
      headers,
      eventType,
    }),
    request: attempt.request,
    eventType,
  });
  logDelivery(
    deps.log,
    202,
    outcome.label,
    webhook.uid,
    id,
    body.length,
    describeOutcome(outcome),
    attempt.client,
  );
  replyJson(ctx, 202, { delivery_id: id });
}
