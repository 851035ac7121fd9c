import type { Verification } from './scheme.js';

/**
 * Why a request failed verification. The message is the operator-facing reason: short, and never
 * the secret or the expected signature. Thrown inside a verifier, turned into a verdict at its edge.
 */
export class VerificationError extends Error {
  override readonly name = 'VerificationError';
}

/** Why `sign()` could not produce headers (a secret or setting it cannot use). */
export class SigningError extends Error {
  override readonly name = 'SigningError';
}

export function fail(reason: string): never {
  throw new VerificationError(reason);
}

/** The reason given if a verifier throws anything but a VerificationError: a bug, still never a pass. */
export const UNEXPECTED_FAILURE_REASON = 'signature could not be verified';

/** Runs a verifier that returns the delivery ID or throws VerificationError; never throws itself. */
export function toVerdict(verify: () => string | null): Verification {
  try {
    return { ok: true, deliveryId: verify() };
  } catch (error) {
    if (error instanceof VerificationError) return { ok: false, reason: error.message };
    return { ok: false, reason: UNEXPECTED_FAILURE_REASON };
  }
}

/** An empty secret would make every HMAC forgeable (and a GitLab token trivially equal): refuse it. */
export function requireSecret(secret: string): void {
  if (secret === '') fail('no signing secret configured');
}
