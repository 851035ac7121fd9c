import type { Attempt } from '../attempt.js';
import { MAX_BODY_BYTES } from '../limits.js';
import { abandon, rejectTooLarge } from '../refusals.js';
import { readBody, type BodyResult } from './read-body.js';
import { answeredAfter, type Verdict } from './step.js';

/**
 * The body, read with its limit (PRODUCT §3 step 3) by the first step that needs it, never twice:
 * a 413 (a declared length past the limit is refused without reading), or nothing when the sender
 * went away; `pass` once `attempt.body` holds it. Read only when needed, so that a token webhook's
 * spent rate (take-rate.ts) is refused before a body that would be dropped anyway.
 */
function afterRead(attempt: Attempt, read: BodyResult): Verdict | Promise<Verdict> {
  if (read.kind === 'aborted') {
    abandon(attempt);
    return 'answered';
  }
  if (read.kind === 'too-large') {
    return answeredAfter(rejectTooLarge(attempt, read.size, read.declared));
  }
  attempt.body = read.body;
  return 'pass';
}

/**
 * Runs `then` over the body, reading it first if no step has yet: one Promise for the read and
 * what follows it, settled from the read's own callback (no async function, no second `then`).
 */
export function withBody(
  attempt: Attempt,
  then: (attempt: Attempt, body: Buffer) => Verdict | Promise<Verdict>,
): Verdict | Promise<Verdict> {
  if (attempt.body !== null) return then(attempt, attempt.body);
  return new Promise((resolve, reject) => {
    readBody(attempt.req, MAX_BODY_BYTES, (read) => {
      try {
        const verdict = afterRead(attempt, read);
        resolve(verdict === 'pass' ? then(attempt, attempt.body!) : verdict);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}

const PASS = (): Verdict => 'pass';

/** Reads the body now (see readBodyOnce), for a step that needs only its verdict. */
export const bodyRead = (attempt: Attempt): Verdict | Promise<Verdict> => withBody(attempt, PASS);
