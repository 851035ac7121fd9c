import type { IncomingMessage } from 'node:http';
import { REDACTED, isCredentialHeader } from '../../../shared/credential-headers.js';
import { ownCredentialHeader } from '../../../shared/providers/index.js';
import type { RequestContext } from '../../store/delivery-batch.js';
import type { WebhookRecord } from '../../store/webhooks.js';
import type { IngressTarget } from './match-path.js';

/**
 * The request as the log keeps it: method, the target with a URL token as `{token}`, and the
 * headers in received order with names as sent. Node's header limit (16 KB by default) bounds it.
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
}): RequestContext {
  const raw = req.url ?? '/';
  // Rebuilt from the matched parts, so the token can never survive in the stored path.
  const query = raw.includes('?') ? raw.slice(raw.indexOf('?')) : '';
  const path = target.token === null ? raw : `/webhooks/w/${target.uid}/{token}${query}`;
  const extra = ownCredentialHeader(webhook);
  const headers: Array<[string, string]> = [];
  const raws = req.rawHeaders;
  for (let i = 0; i + 1 < raws.length; i += 2) {
    const name = raws[i]!;
    headers.push([name, isCredentialHeader(name, extra) ? REDACTED : raws[i + 1]!]);
  }
  return { method: req.method ?? 'POST', path, headers };
}
