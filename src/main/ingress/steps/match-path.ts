import { WEBHOOK_UID_PATTERN } from '../../../shared/contract/common.js';

export interface IngressTarget {
  uid: string;
  /** The URL-token path segment, exactly as sent (undecoded). */
  token: string | null;
}

const INGRESS_PATH = /^\/webhooks\/w\/([^/]+)(?:\/([^/]+))?$/;

/**
 * Matches the undecoded request target, so `%2F`, `%2e%2e`, a malformed `%` or full-width
 * characters can never be decoded into something that resolves: they simply do not match.
 */
export function matchIngressPath(rawUrl: string): IngressTarget | null {
  const queryAt = rawUrl.indexOf('?');
  const path = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
  const match = INGRESS_PATH.exec(path);
  if (!match || !WEBHOOK_UID_PATTERN.test(match[1]!)) return null;
  return { uid: match[1]!, token: match[2] ?? null };
}
