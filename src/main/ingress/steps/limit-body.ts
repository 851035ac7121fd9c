import { MAX_BODY_BYTES } from '../limits.js';
import { declaredSize } from '../refusals.js';
import { bodyRead } from './body.js';
import type { Step } from './step.js';

/**
 * PRODUCT §3 step 3, as far as the headers tell: a Content-Length within the limit passes on
 * unread (the body cannot be longer than declared). A longer declared length is a 413 at once,
 * and a body of unknown length (chunked) is read now, so that its size is known before the rate
 * is counted (take-rate.ts): a refused body must not spend a slot.
 */
export const limitBody: Step = (attempt) => {
  const { req } = attempt;
  if (req.headers['transfer-encoding'] === undefined && declaredSize(req) <= MAX_BODY_BYTES) {
    return 'pass';
  }
  return bodyRead(attempt);
};
