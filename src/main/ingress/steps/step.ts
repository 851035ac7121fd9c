import type { Attempt } from '../attempt.js';

/**
 * What a step of the ingress flow (flow.ts) says about a request: `answered`, and the flow stops
 * there (the step wrote the answer, or the sender went away and nobody is left to answer), or
 * `pass`, and the next step takes it.
 */
export type Verdict = 'answered' | 'pass';

/** One step of the flow: synchronous where it can be, a Promise where it waits (a body, a commit). */
export type Step = (attempt: Attempt) => Verdict | Promise<Verdict>;

const ANSWERED = (): Verdict => 'answered';

/** `answered`, once an answer that may wait for a shared budget (a Promise) has been written. */
export function answeredAfter(written: void | Promise<void>): Verdict | Promise<Verdict> {
  return written instanceof Promise ? written.then(ANSWERED) : 'answered';
}
