import type { Attempt } from '../attempt.js';
import { rejectAuth } from '../refusals.js';
import type { Verification } from '../schemes/scheme.js';
import { withBody } from './body.js';
import { answeredAfter, type Step, type Verdict } from './step.js';

function verification(attempt: Attempt, body: Buffer): Verification {
  const { req, deps, webhook, secret } = attempt;
  if (secret === undefined || webhook.signatureScheme === null) {
    return { ok: false, reason: 'the webhook signing secret is missing from the secret store' };
  }
  return deps.schemes(webhook.signatureScheme).verify({
    headers: req.headersDistinct,
    body,
    secret,
    now: attempt.receivedAt,
    options: webhook.signatureOptions,
  });
}

function verify(attempt: Attempt, body: Buffer): Verdict | Promise<Verdict> {
  const verified = verification(attempt, body);
  if (!verified.ok) {
    return answeredAfter(rejectAuth(attempt, verified.reason, body.length, body));
  }
  attempt.providerDeliveryId = verified.deliveryId;
  attempt.replayKey = verified.replayKey;
  return 'pass';
}

/**
 * PRODUCT §3 steps 4–5 for a signature webhook: its scheme's check over the exact raw bytes, and
 * the provider's delivery ID and replay key when it holds; a 401 (budgeted as every entry written
 * before authentication is) when it does not. Token webhooks were checked before their body.
 */
export const verifySignature: Step = (attempt) => {
  if (attempt.webhook.authMode !== 'signature') return 'pass';
  return withBody(attempt, verify);
};
