import { URL_SAFE_SECRET, type AuthMode } from '../../shared/contract/webhooks.js';
import { ApiError } from '../../shared/errors.js';
import type { SignatureSchemeName } from '../../shared/signature-schemes.js';
import { newSecretValue, newStandardWebhooksSecret } from '../ids.js';

/**
 * The value for a new or rotated webhook secret: generated for token modes, the provider's
 * signing secret for `signature` (generated only for Standard Webhooks, when left blank).
 */
export function chooseSecretValue(
  authMode: AuthMode,
  scheme: SignatureSchemeName | null,
  supplied: string | undefined,
): string {
  if (authMode !== 'signature') {
    if (supplied !== undefined) {
      throw new ApiError(
        'invalid_input',
        'secret: the relay generates secrets for token and url_token webhooks; leave it out',
        'secret',
      );
    }
    return newSecretValue();
  }
  if (supplied !== undefined) return supplied;
  if (scheme === 'standard-webhooks') return newStandardWebhooksSecret();
  throw new ApiError(
    'invalid_input',
    `secret: paste the provider's signing secret (only standard-webhooks can generate one)`,
    'secret',
  );
}

export function assertUrlSafe(value: string, path: string): void {
  if (!URL_SAFE_SECRET.test(value)) {
    throw new ApiError(
      'invalid_input',
      `${path}: a url_token secret must be at least 16 characters of A–Z, a–z, 0–9, ".", "_", "~" or "-"`,
      path,
    );
  }
}
