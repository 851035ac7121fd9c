import { constantTimeEqual } from '../../crypto/constant-time.js';

/** Bearer-token check from the Authorization header alone: the body is never read on failure. */
export function checkBearerToken(authorization: string | undefined, secret: string): string | null {
  if (authorization === undefined) return 'missing Authorization header';
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization);
  if (!match) return 'Authorization header is not "Bearer <token>"';
  return constantTimeEqual(match[1]!, secret) ? null : 'token does not match';
}

export function checkUrlToken(segment: string | null, secret: string): string | null {
  if (segment === null) return 'missing URL token';
  return constantTimeEqual(segment, secret) ? null : 'URL token does not match';
}
