import { declaredSize, rejectAuth } from '../refusals.js';
import { checkBearerToken, checkUrlToken } from './check-token.js';
import { headerLines } from './header-lines.js';
import { answeredAfter, type Step } from './step.js';

/**
 * PRODUCT §3 step 2: a token webhook's credential, from the headers or the path, before the body
 * is read (a failure is a 401, or a 429 once the unauthenticated budgets are spent, and the body
 * is never read). A signature webhook passes on: its signature covers the body
 * (verify-signature.ts).
 */
export const checkCredential: Step = (attempt) => {
  const { webhook, secret, req } = attempt;
  if (webhook.authMode === 'signature') return 'pass';
  const failure =
    secret === undefined
      ? 'the webhook secret is missing from the secret store'
      : webhook.authMode === 'token'
        ? checkBearerToken(headerLines(req, 'authorization'), secret)
        : checkUrlToken(attempt.target.token, secret);
  if (failure === null) return 'pass';
  return answeredAfter(rejectAuth(attempt, failure, declaredSize(req), null));
};
