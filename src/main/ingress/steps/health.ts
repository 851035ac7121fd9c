import { answerHealth } from '../health-check.js';
import { noteRefusal } from '../refusals.js';
import { replyError } from '../reply.js';
import type { Step } from './step.js';

const isHealthCheck = (rawUrl: string): boolean =>
  rawUrl === '/healthz' || rawUrl.startsWith('/healthz?');

/** GET /healthz: whether the store commits (health-check.ts); any other method is a 405. */
export const answerHealthCheck: Step = (attempt) => {
  const { req, res, deps } = attempt;
  if (!isHealthCheck(req.url ?? '/')) return 'pass';
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    const why = 'health check with a method but GET or HEAD';
    noteRefusal(req, deps, 405, why, null, attempt.receivedAt, attempt.client);
    replyError(res, 405, 'method_not_allowed', 'Use GET.', ['Allow', 'GET, HEAD']);
    return 'answered';
  }
  return answerHealth(res, deps.storeKind, deps.storeHealth).then(() => 'answered');
};
