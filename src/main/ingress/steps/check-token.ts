import { matchesStoredSecret } from '../../crypto/constant-time.js';

/**
 * Bearer-token check from the Authorization header alone: the body is never read on failure.
 * Sent twice, it is refused: Node would read the first, a proxy in front perhaps the other.
 */
export function checkBearerToken(lines: string[] | undefined, secret: string): string | null {
  if (lines === undefined || (lines.length === 1 && lines[0] === ''))
    return 'missing Authorization header';
  if (lines.length > 1) return 'more than one Authorization header';
  const authorization = lines[0]!;
  if (!BEARER.test(authorization)) return 'Authorization header is not "Bearer <token>"';
  return matchesStoredSecret(bearerToken(authorization), secret) ? null : 'token does not match';
}

const BEARER = /^Bearer[ ]+\S+\s*$/i;

/**
 * The token of a value BEARER matched: after "Bearer" come spaces, the token (no whitespace),
 * then only whitespace, which is what `trim` takes off (`\s` and `trim` share one set). Tested,
 * not `exec`ed: no match array per request (issue 25, the accept path's allocations).
 */
const bearerToken = (authorization: string): string => authorization.slice(6).trim();

export function checkUrlToken(segment: string | null, secret: string): string | null {
  if (segment === null) return 'missing URL token';
  return matchesStoredSecret(segment, secret) ? null : 'URL token does not match';
}
