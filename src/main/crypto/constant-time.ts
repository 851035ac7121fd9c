import { hash, timingSafeEqual } from 'node:crypto';

/**
 * Compares two secrets without leaking where they differ or how long the expected one is:
 * both sides are hashed first so timingSafeEqual always sees equal lengths.
 */
export function constantTimeEqual(actual: string | Buffer, expected: string | Buffer): boolean {
  // The one-shot hash: no Hash object per call on the ingress hot path.
  return timingSafeEqual(hash('sha256', actual, 'buffer'), hash('sha256', expected, 'buffer'));
}
