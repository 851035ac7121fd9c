import Koa from 'koa';
import type { Handler } from '../http/listener.js';
import { describeError } from '../log.js';
import { Attempt } from './attempt.js';
import type { IngressDeps } from './ingress-deps.js';
import { replyError } from './reply.js';
import { accept } from './steps/accept.js';
import { checkCredential } from './steps/check-credential.js';
import { answerHealthCheck } from './steps/health.js';
import { limitBody } from './steps/limit-body.js';
import { resolveWebhook } from './steps/resolve-webhook.js';
import type { Step } from './steps/step.js';
import { takeRate } from './steps/take-rate.js';
import { requireJson } from './steps/valid-json.js';
import { verifySignature } from './steps/verify-signature.js';

export type { IngressDeps, RunPlanner } from './ingress-deps.js';

/**
 * Every request to the ingress listener, in PRODUCT §3's order: each step answers it or passes it
 * on. What can be refused from the request line and headers (404, 405, a token's 401, a declared
 * 413, a spent rate's 429) is refused before the body is read; the body is read by the first step
 * that needs it (steps/body.ts).
 */
export const INGRESS_FLOW: readonly Step[] = [
  answerHealthCheck,
  resolveWebhook,
  checkCredential,
  limitBody,
  verifySignature,
  takeRate,
  requireJson,
  accept,
];

/**
 * The steps from `from` on, synchronous for as long as the steps are. A step that waits (a body,
 * a commit) goes on from its own `then`: no Promise is returned up the chain, so none is made per
 * step to adopt the next one's, nor one per request for the error path (issue 25, the accept
 * path's main-thread cost). Whatever a step throws, now or later, ends in `failed`.
 */
function run(attempt: Attempt, ctx: Koa.Context, from: number): void {
  for (let i = from; i < INGRESS_FLOW.length; i++) {
    const verdict = INGRESS_FLOW[i]!(attempt);
    if (verdict === 'answered') return;
    if (verdict !== 'pass') {
      verdict.then(
        (later) => {
          if (later === 'pass') resume(attempt, ctx, i + 1);
        },
        (error: unknown) => failSafely(attempt, ctx, error),
      );
      return;
    }
  }
}

function resume(attempt: Attempt, ctx: Koa.Context, from: number): void {
  try {
    run(attempt, ctx, from);
  } catch (error) {
    failSafely(attempt, ctx, error);
  }
}

/** `failed`, and what even that could not do goes to Koa's `ctx.onerror`, as before. */
function failSafely(attempt: Attempt, ctx: Koa.Context, error: unknown): void {
  try {
    failed(attempt, error);
  } catch (unanswered) {
    ctx.onerror(unanswered as Error);
  }
}

/**
 * The one error path: whatever a step could not do (the store could not commit, a shared limit
 * could not be read) is a 503 the sender retries, never a 202, and the operator reads why.
 */
function failed(attempt: Attempt, error: unknown): void {
  attempt.deps.log.error(`[ingress] could not record a delivery: ${describeError(error)}`);
  if (attempt.res.headersSent) return;
  const message = 'The relay could not record this delivery. Retry later.';
  replyError(attempt.res, 503, 'unavailable', message, ['Retry-After', '5']);
}

type FlowMiddleware = (ctx: Koa.Context) => void;

/**
 * Koa's `compose` option (Koa 3's constructor takes one): the ingress has one middleware, the
 * flow, called as it is. koa-compose would make a dispatch function, a bound `next` and a Promise
 * for every request, for a chain of one that never calls `next`.
 */
function theFlowAlone(middleware: FlowMiddleware[]): FlowMiddleware {
  if (middleware.length !== 1)
    throw new Error('the ingress app runs exactly one middleware: the flow');
  return middleware[0]!;
}

/**
 * Koa, less what the ingress turns off anyway. Koa's own `handleRequest` attaches on-finished
 * listeners to every response and socket (to hand a failed write to `app.onerror`, which is
 * silent here) and calls `respond` once the middleware is done (off: `ctx.respond = false`); on
 * a path that answers in a few dozen µs, those listeners were a measured share of each request
 * (docs/operations/performance.md, the ingress section). The context and the middleware are
 * Koa's as before; an error the flow did not catch still goes to `ctx.onerror`.
 */
class IngressKoa extends Koa {
  constructor() {
    // Not in @types/koa, which describes Koa 2.
    super({ compose: theFlowAlone } as object);
  }

  handleRequest(ctx: Koa.Context, flow: FlowMiddleware): void {
    try {
      flow(ctx);
    } catch (error) {
      ctx.onerror(error as Error);
    }
  }
}

/**
 * The ingress Koa app: one middleware, the flow. Every answer is written to the response directly
 * (reply.ts), not through Koa's body handling.
 */
export function createIngressApp(deps: IngressDeps): Koa {
  const app = new IngressKoa();
  app.silent = true;
  app.use((ctx) => {
    ctx.respond = false;
    const attempt = new Attempt(ctx.req, ctx.res, deps);
    try {
      run(attempt, ctx, 0);
    } catch (error) {
      failSafely(attempt, ctx, error);
    }
  });
  return app;
}

/** The ingress listener's handler (http/listener.ts). */
export const createIngressHandler = (deps: IngressDeps): Handler =>
  createIngressApp(deps).callback();
