import { hash, timingSafeEqual } from 'node:crypto';

/**
 * Compares two secrets without leaking where they differ or how long the expected one is:
 * both sides are hashed first so timingSafeEqual always sees equal lengths.
 */
export function constantTimeEqual(actual: string | Buffer, expected: string | Buffer): boolean {
  // The one-shot hash: no Hash object per call on the ingress hot path.
  return timingSafeEqual(hash('sha256', actual, 'buffer'), hash('sha256', expected, 'buffer'));
}

/**
 * `constantTimeEqual` against a stored secret (a webhook's token), without a SHA-256 per call:
 * on the accept path each digest (OpenSSL's lookup of the algorithm, the digest, a string or a
 * Buffer for it) was a measured share of the senders' thread (issue 25).
 * Every character of the candidate is compared, the secret read round and round, and the lengths
 * folded in: the time depends on the candidate's length alone, which its sender knows, never on
 * where the two differ or on how long the secret is.
 */
export function matchesStoredSecret(candidate: string, secret: string): boolean {
  const n = secret.length;
  if (n === 0) return false;
  let difference = candidate.length ^ n;
  for (let i = 0; i < candidate.length; i++) {
    difference |= candidate.charCodeAt(i) ^ secret.charCodeAt(i % n);
  }
  return difference === 0;
}
