import type { Attempt } from '../attempt.js';
import { rejectWithLog } from '../refusals.js';
import { withBody } from './body.js';
import { checkJsonBody } from './check-json.js';
import { eventTypeReadsBody } from './event-type.js';
import { formBodyReason } from './form-body.js';
import { parseJsonBody } from './parse-json.js';
import type { Step, Verdict } from './step.js';

function check(attempt: Attempt, body: Buffer): Verdict {
  const { req, deps, webhook } = attempt;
  // The tree only for what reads it: most of a large body's garbage on the accept path.
  const evaluated = deps.hasAutomations(webhook.uid) || eventTypeReadsBody(webhook);
  const parsed = evaluated ? parseJsonBody(body) : checkJsonBody(body);
  if (parsed.ok) {
    attempt.payload = parsed.value;
    return 'pass';
  }
  const scheme = webhook.authMode === 'signature' ? webhook.signatureScheme : null;
  const reason = formBodyReason(req, body, scheme) ?? parsed.reason;
  const label = 'Rejected (invalid JSON)';
  rejectWithLog(attempt, 400, 'invalid_json', label, reason, body.length, body);
  return 'answered';
}

/**
 * PRODUCT §3 step 7: the body is JSON (RFC 8259, UTF-8, one leading BOM tolerated), or a 400
 * `Rejected (invalid JSON)` whose reason names the fix. Parsed into `attempt.payload` only for a
 * webhook whose automations or event type read it; otherwise only checked.
 */
export const requireJson: Step = (attempt) => withBody(attempt, check);
