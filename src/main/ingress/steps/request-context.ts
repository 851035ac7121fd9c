import type { IncomingMessage } from 'node:http';
import { REDACTED, isCredentialHeader } from '../../../shared/credential-headers.js';
import { ownCredentialHeader } from '../../../shared/providers/index.js';
import type { ReceivedRequest } from '../../store/delivery-batch.js';
import type { WebhookRecord } from '../../store/webhooks.js';
import type { IngressTarget } from './match-path.js';

/**
 * The request as the log keeps it: method, the target with a URL token as `{token}`, and the
 * headers in received order with names as sent, one flat list (name, value, …). Node's header
 * limit (16 KB by default) bounds it.
 * Built only for a request that gets a log entry: a 429 needs none, and a request waiting for its
 * commit does not carry it.
 */
export function requestContext({
  req,
  target,
  webhook,
}: {
  req: IncomingMessage;
  target: IngressTarget;
  webhook: WebhookRecord;
}): ReceivedRequest {
  const raw = req.url ?? '/';
  // Rebuilt from the matched parts, so the token can never survive in the stored path.
  const query = raw.includes('?') ? raw.slice(raw.indexOf('?')) : '';
  const path = target.token === null ? raw : `/webhooks/w/${target.uid}/{token}${query}`;
  const extra = ownCredentialHeader(webhook);
  const raws = req.rawHeaders;
  // Node's own list when no value is redacted; else one copy (no pair array per header).
  let headers: string[] = raws;
  for (let i = 0; i + 1 < raws.length; i += 2) {
    if (!isCredentialHeader(raws[i]!, extra)) continue;
    if (headers === raws) headers = raws.slice();
    headers[i + 1] = REDACTED;
  }
  return { method: req.method ?? 'POST', path, headers };
}
