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

/** The steps from `from` on; synchronous for as long as the steps are (no Promise per step). */
function run(attempt: Attempt, from: number): Promise<void> | undefined {
  for (let i = from; i < INGRESS_FLOW.length; i++) {
    const verdict = INGRESS_FLOW[i]!(attempt);
    if (verdict === 'answered') return undefined;
    if (verdict !== 'pass') {
      return verdict.then((later) => (later === 'pass' ? run(attempt, i + 1) : undefined));
    }
  }
  return undefined;
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

/**
 * Koa, less what the ingress turns off anyway. Koa's own `handleRequest` attaches on-finished
 * listeners to every response and socket (to hand a failed write to `app.onerror`, which is
 * silent here) and calls `respond` once the middleware is done (off: `ctx.respond = false`); on
 * a path that answers in a few dozen µs, those listeners were a measured share of each request
 * (docs/operations/performance.md, the ingress section). The context and the middleware are
 * Koa's as before; an error the flow did not catch still goes to `ctx.onerror`.
 */
class IngressKoa extends Koa {
  handleRequest(ctx: Koa.Context, middleware: (ctx: Koa.Context) => Promise<void>): Promise<void> {
    return middleware(ctx).catch((error: Error) => ctx.onerror(error));
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
      return run(attempt, 0)?.catch((error: unknown) => failed(attempt, error));
    } catch (error) {
      failed(attempt, error);
    }
  });
  return app;
}

/** The ingress listener's handler (http/listener.ts). */
export const createIngressHandler = (deps: IngressDeps): Handler =>
  createIngressApp(deps).callback();
