import type { Attempt } from '../attempt.js';
import { refuseTooMany } from '../refusals.js';
import type { Step, Verdict } from './step.js';

function decide(attempt: Attempt, wait: number): Verdict {
  if (wait === 0) return 'pass';
  const limit = attempt.deps.rateLimiter.limit;
  const message = `More than ${limit} deliveries in a minute.`;
  refuseTooMany(attempt, 'delivery rate limit', message, wait);
  return 'answered';
}

/**
 * PRODUCT §3 step 6, the webhook's delivery rate (60 a minute unless raised), counted only for an
 * authenticated request whose size is within the limit: a slot taken, or 429 with Retry-After
 * and no log entry. In memory on SQLite; shared through the database on PostgreSQL, where it may
 * answer after a round trip (the request waits unread meanwhile).
 */
export const takeRate: Step = (attempt) => {
  const wait = attempt.deps.rateLimiter.take(attempt.webhook.uid, attempt.receivedAt);
  if (typeof wait === 'number') return decide(attempt, wait);
  return wait.then((answered) => decide(attempt, answered));
};
