import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Handler } from '../http/listener.js';
import { createIngressApp } from './app.js';
import type { Attempt, IngressDeps } from './ingress-deps.js';
import { MAX_BODY_BYTES } from './limits.js';
import { afterGate, declaredSize, noteRefusal, refuseRate, rejectAuth } from './refusals.js';
import { NOT_FOUND_MESSAGE, replyError } from './reply.js';
import { checkBearerToken, checkUrlToken } from './steps/check-token.js';
import { clientAddress } from './steps/client-address.js';
import { headerLines } from './steps/header-lines.js';
import { matchIngressPath } from './steps/match-path.js';

const isHealthCheck = (rawUrl: string): boolean =>
  rawUrl === '/healthz' || rawUrl.startsWith('/healthz?');

/**
 * The ingress listener's handler. What can be refused from the request line and headers alone
 * is answered here, before Koa builds its per-request context (a scanner's 404s and a runaway
 * sender's 429s cost little more than Node's HTTP parsing): an unknown path or webhook (404), a
 * method other than POST (405), and for token webhooks a credential that does not match (401)
 * or a spent delivery rate (429). A request that passes goes on to the Koa app (app.ts), which
 * reads the body and takes the steps that need it.
 */
export function createIngressHandler(deps: IngressDeps): Handler {
  const admitted = new WeakMap<IncomingMessage, Attempt>();
  // Taken out as soon as the app reads it: V8's young-generation collections keep a WeakMap's
  // values, and the attempt holds its request, so an entry left for the GC to clear kept every
  // accepted request alive until a full collection (promoted, at about 1 ms per young collection).
  const app = createIngressApp(deps, (req) => {
    const attempt = admitted.get(req) ?? null;
    admitted.delete(req);
    return attempt;
  });
  const passOn = app.callback();
  return (req, res) => {
    if (isHealthCheck(req.url ?? '/')) return passOn(req, res);
    const pass = (attempt: Attempt | null): Promise<void> | void => {
      if (attempt === null) return;
      admitted.set(req, attempt);
      return passOn(req, res);
    };
    const attempt = admit(req, res, deps);
    // A shared limit may answer after a round trip; the request waits unread meanwhile.
    if (attempt instanceof Promise) return attempt.then(pass);
    return pass(attempt);
  };
}

/** The steps before the body (PRODUCT §3 1–2, and 6 where 3–5 cannot apply); null once answered. */
function admit(
  req: IncomingMessage,
  res: ServerResponse,
  deps: IngressDeps,
): Attempt | null | Promise<Attempt | null> {
  const client = clientAddress(req, deps.trustProxy);
  const at = deps.now();
  const notFound = (reason: string, webhookUid: string | null): null => {
    noteRefusal(req, deps, 404, reason, webhookUid, at, client);
    replyError(res, 404, 'not_found', NOT_FOUND_MESSAGE);
    return null;
  };
  const notPost = (webhookUid: string | null): null => {
    noteRefusal(req, deps, 405, `${req.method ?? ''} instead of POST`, webhookUid, at, client);
    replyError(res, 405, 'method_not_allowed', 'Send deliveries with POST.', { Allow: 'POST' });
    return null;
  };
  // CONNECT names a host, not a path: refused for its method.
  if (req.method === 'CONNECT') return notPost(null);
  const target = matchIngressPath(req.url ?? '/');
  if (!target) return notFound('not a webhook URL', null);
  const webhook = deps.webhooks.get(target.uid);
  if (req.method !== 'POST') return notPost(webhook?.uid ?? null);
  if (!webhook || !webhook.enabled) {
    const why = webhook ? 'webhook is disabled' : 'no such webhook (unknown or deleted)';
    return notFound(why, webhook?.uid ?? null);
  }
  if (target.token !== null && webhook.authMode !== 'url_token') {
    return notFound('a token in the path of a webhook without URL tokens', webhook.uid);
  }
  const attempt: Attempt = {
    req,
    res,
    deps,
    webhook,
    target,
    client,
    receivedAt: at,
    secret: deps.secrets.cachedValue(webhook.factoryId, webhook.secretName),
    rateCounted: false,
  };
  if (webhook.authMode === 'signature') return attempt;

  const failure =
    attempt.secret === undefined
      ? 'the webhook secret is missing from the secret store'
      : webhook.authMode === 'token'
        ? checkBearerToken(headerLines(req, 'authorization'), attempt.secret)
        : checkUrlToken(target.token, attempt.secret);
  if (failure) {
    const refused = rejectAuth(attempt, failure, declaredSize(req), null);
    return refused instanceof Promise ? refused.then(() => null) : null;
  }
  // A declared length within the limit rules out 413, so the rate (step 6) is next: counted now,
  // a spent rate is refused without reading a body that would be dropped anyway.
  if (req.headers['transfer-encoding'] !== undefined || declaredSize(req) > MAX_BODY_BYTES) {
    return attempt;
  }
  attempt.rateCounted = true;
  let passed: Attempt | null = null;
  const gated = afterGate(attempt, deps.rateLimiter, webhook.uid, at, (wait) => {
    if (wait === 0) passed = attempt;
    else refuseRate(attempt, wait);
  });
  return gated instanceof Promise ? gated.then(() => passed) : passed;
}
