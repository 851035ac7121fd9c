import type { IncomingMessage } from 'node:http';
import Koa from 'koa';
import { newDeliveryId, newRunId } from '../ids.js';
import { describeError } from '../log.js';
import { describeOutcome, logDelivery } from './delivery-line.js';
import type { AcceptItem, AcceptOutcome } from '../store/delivery-batch.js';
import type { Attempt, DeliverySeen, IngressDeps } from './ingress-deps.js';
import { answerHealth } from './health-check.js';
import { MAX_BODY_BYTES } from './limits.js';
import {
  abandon,
  noteRefusal,
  refuseRate,
  rejectAuth,
  rejectTooLarge,
  rejectWithLog,
} from './refusals.js';
import { replyError, replyJson } from './reply.js';
import type { Verification } from './schemes/scheme.js';
import { checkJsonBody } from './steps/check-json.js';
import { deliveryEventType, eventTypeReadsBody } from './steps/event-type.js';
import { rawHeaderReader } from './steps/header-lines.js';
import { deliveryIdentity } from './steps/identity.js';
import { parseJsonBody } from './steps/parse-json.js';
import { readBody } from './steps/read-body.js';
import { requestContext } from './steps/request-context.js';

export type { IngressDeps, RunPlanner } from './ingress-deps.js';

/**
 * The ingress Koa app: the health check, and every POST the door (door.ts) admitted, from its
 * body to the 202. `admitted` gives the door's findings for a request.
 */
export function createIngressApp(
  deps: IngressDeps,
  admitted: (req: IncomingMessage) => Attempt | null,
): Koa {
  const app = new Koa();
  app.silent = true;
  app.use(async (ctx) => {
    // Every ingress answer is written to the response directly (reply.ts).
    ctx.respond = false;
    const attempt = admitted(ctx.req);
    if (!attempt) return answerHealthCheck(deps, ctx.req, ctx.res);
    try {
      await receive(attempt);
    } catch (error) {
      deps.log.error(`[ingress] could not record a delivery: ${describeError(error)}`);
      if (!ctx.res.headersSent) {
        replyError(
          ctx.res,
          503,
          'unavailable',
          'The relay could not record this delivery. Retry later.',
          { 'Retry-After': '5' },
        );
      }
    }
  });
  return app;
}

function answerHealthCheck(
  deps: IngressDeps,
  req: IncomingMessage,
  res: Attempt['res'],
): void | Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    noteRefusal(req, deps, 405, 'health check with a method but GET or HEAD', null);
    return replyError(res, 405, 'method_not_allowed', 'Use GET.', { Allow: 'GET, HEAD' });
  }
  return answerHealth(res, deps.storeKind, deps.storeHealth);
}

/** PRODUCT §3 steps 3–9: the body with its limit, then the steps over it, then the commit. */
async function receive(attempt: Attempt): Promise<void> {
  const read = await readBody(attempt.req, MAX_BODY_BYTES);
  if (read.kind === 'aborted') return abandon(attempt);
  if (read.kind === 'too-large') return rejectTooLarge(attempt, read.size, read.declared);
  const verified = verify(attempt, read.body);
  if (!verified.ok) return rejectAuth(attempt, verified.reason, read.body.length, read.body);
  if (!attempt.rateCounted) {
    const wait = await attempt.deps.rateLimiter.take(attempt.webhook.uid, attempt.receivedAt);
    if (wait > 0) return refuseRate(attempt, wait);
  }
  const item = acceptable(attempt, read.body, verified.deliveryId, verified.replayKey);
  if (!item) return;
  // Handed over, not awaited here: this frame would keep the body until the commit ends.
  return answerOnceCommitted(attempt, item.id, item.body.length, attempt.deps.writer.accept(item));
}

/** Step 9: the 202, once the delivery is durable, and its line in the relay's output. */
async function answerOnceCommitted(
  attempt: Attempt,
  deliveryId: string,
  bytes: number,
  committed: Promise<AcceptOutcome>,
): Promise<void> {
  const outcome = await committed;
  const { deps, webhook } = attempt;
  logDelivery(
    deps.log,
    202,
    outcome.label,
    webhook.uid,
    deliveryId,
    bytes,
    describeOutcome(outcome),
    attempt.client,
  );
  replyJson(attempt.res, 202, { delivery_id: deliveryId });
}

/** Step 4 for signature webhooks: the provider's delivery ID when the signature holds. */
function verify(attempt: Attempt, body: Buffer): Verification {
  const { req, deps, webhook } = attempt;
  if (webhook.authMode !== 'signature') return { ok: true, deliveryId: null };
  if (attempt.secret === undefined || webhook.signatureScheme === null) {
    return { ok: false, reason: 'the webhook signing secret is missing from the secret store' };
  }
  return deps.schemes(webhook.signatureScheme).verify({
    headers: req.headersDistinct,
    body,
    secret: attempt.secret,
    now: attempt.receivedAt,
    options: webhook.signatureOptions,
  });
}

/**
 * What an automation's filters see of the request. The headers object is built only for an
 * automation that filters on headers. A class, not an object literal with a getter: each such
 * literal gets a hidden class of its own, kept in old space, which holds the getter's closure and
 * with it the whole request past every young-generation collection (measured: nearly every
 * accepted request's objects were promoted, and each young collection took 0.9 ms, not 0.5).
 */
class SeenOnRequest implements DeliverySeen {
  constructor(
    private readonly req: IncomingMessage,
    readonly eventType: string | null,
  ) {}

  get headers(): DeliverySeen['headers'] {
    return this.req.headersDistinct;
  }
}

/**
 * JSON, identity and the runs to queue: what to commit, or null once refused. Synchronous on
 * purpose: the parsed payload is garbage before the commit is awaited, so requests waiting for
 * their commit do not keep (and promote) a parsed copy of every body.
 */
function acceptable(
  attempt: Attempt,
  body: Buffer,
  providerDeliveryId: string | null,
  signatureKey?: string,
): AcceptItem | null {
  const { req, deps, webhook } = attempt;
  // The tree only for what reads it: most of a large body's garbage on the accept path.
  const evaluated = deps.hasAutomations(webhook.uid) || eventTypeReadsBody(webhook);
  const parsed = evaluated ? parseJsonBody(body) : checkJsonBody(body);
  if (!parsed.ok) {
    const reason = parsed.reason;
    rejectWithLog(
      attempt,
      400,
      'invalid_json',
      'Rejected (invalid JSON)',
      reason,
      body.length,
      body,
    );
    return null;
  }

  const id = newDeliveryId(attempt.receivedAt);
  // The steps read a header or two; the object of every header is built only for an automation
  // that filters on headers.
  const header = rawHeaderReader(req);
  const identity = deliveryIdentity(header, body, webhook.deliveryIdHeader, providerDeliveryId);
  const eventType = deliveryEventType(webhook, header, parsed.value);
  return {
    id,
    webhookUid: webhook.uid,
    receivedAt: attempt.receivedAt,
    body,
    identity: identity.identity,
    identitySource: identity.source,
    clientAddress: attempt.client,
    runs: deps.planRuns(
      webhook,
      id,
      parsed.value,
      () => newRunId(attempt.receivedAt),
      new SeenOnRequest(req, eventType),
    ),
    request: requestContext(attempt),
    eventType,
    // Always present (undefined when unsigned): one object shape for every accepted request.
    signatureKey,
  };
}
