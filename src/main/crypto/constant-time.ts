import { hash, timingSafeEqual } from 'node:crypto';

/**
 * Compares two secrets without leaking where they differ or how long the expected one is:
 * both sides are hashed first so timingSafeEqual always sees equal lengths.
 */
export function constantTimeEqual(actual: string | Buffer, expected: string | Buffer): boolean {
  // The one-shot hash: no Hash object per call on the ingress hot path.
  return timingSafeEqual(hash('sha256', actual, 'buffer'), hash('sha256', expected, 'buffer'));
}

/** Stored secrets' digests kept; past this many the cache starts again (secrets rotate rarely). */
const KEPT_DIGESTS = 256;
const digests = new Map<string, string>();

/**
 * SHA-256 as a 32-character one-byte string ('binary' is latin1): a string on V8's heap, where a Buffer would be a
 * backing store allocated and freed per call (measurable per accept, issue 25).
 */
const digestOf = (text: string): string => hash('sha256', text, 'binary');

/** Two digests' characters all compared, whichever differ: no early exit to time. */
function sameDigest(a: string, b: string): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/**
 * `constantTimeEqual` against a stored secret (a webhook's token, the admin token), whose digest
 * is computed once: a token webhook compares every delivery with the same secret, and the second
 * SHA-256 was measurable per accept (issue 25). Not for a value computed per request (an HMAC):
 * it would only churn the cache.
 */
export function matchesStoredSecret(candidate: string, secret: string): boolean {
  let digest = digests.get(secret);
  if (digest === undefined) {
    if (digests.size >= KEPT_DIGESTS) digests.clear();
    digest = digestOf(secret);
    digests.set(secret, digest);
  }
  return sameDigest(digestOf(candidate), digest);
}
