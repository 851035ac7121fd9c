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
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization);
  if (!match) return 'Authorization header is not "Bearer <token>"';
  return matchesStoredSecret(match[1]!, secret) ? null : 'token does not match';
}

export function checkUrlToken(segment: string | null, secret: string): string | null {
  if (segment === null) return 'missing URL token';
  return matchesStoredSecret(segment, secret) ? null : 'URL token does not match';
}
