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
const digests = new Map<string, Buffer>();

/**
 * `constantTimeEqual` against a stored secret (a webhook's token, the admin token), whose digest
 * is computed once: a token webhook compares every delivery with the same secret, and the second
 * SHA-256 was measurable per accept (issue 25). Not for a value computed per request (an HMAC):
 * it would only churn the cache.
 */
export function matchesStoredSecret(candidate: string, secret: string): boolean {
  let digest = digests.get(secret);
  if (!digest) {
    if (digests.size >= KEPT_DIGESTS) digests.clear();
    digest = hash('sha256', secret, 'buffer');
    digests.set(secret, digest);
  }
  return timingSafeEqual(hash('sha256', candidate, 'buffer'), digest);
}
