import { URL_SAFE_SECRET, type AuthMode } from '../../shared/contract/webhooks.js';
import { ApiError } from '../../shared/errors.js';
import type { GenericHmacOptions, SignatureSchemeName } from '../../shared/signature-schemes.js';
import { PROVIDERS } from '../../shared/providers/index.js';
import { newSecretValue } from '../ids.js';
import { getSignatureScheme, SigningError } from '../ingress/schemes/index.js';

/** Schemes whose secret the relay may make (a blank one is generated). */
const RELAY_MAKES_SECRET = PROVIDERS.filter((provider) => provider.secret.maker === 'either').map(
  (provider) => provider.name,
);

/**
 * The value for a new or rotated webhook secret: generated for token modes, the provider's
 * signing secret for `signature` (generated only for Standard Webhooks, when left blank).
 */
export function chooseSecretValue(
  authMode: AuthMode,
  scheme: SignatureSchemeName | null,
  supplied: string | undefined,
  options: GenericHmacOptions | null,
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
  if (supplied !== undefined) {
    if (scheme !== null) assertUsableSigningSecret(scheme, options, supplied, 'secret');
    return supplied;
  }
  const generate = scheme === null ? undefined : getSignatureScheme(scheme).newSecret;
  if (generate) return generate();
  throw new ApiError(
    'invalid_input',
    `secret: paste the provider's signing secret (only ${RELAY_MAKES_SECRET.join(', ')} can generate one)`,
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

/**
 * Refuses a provider secret that no genuine delivery could ever match, when it is entered rather
 * than at the first delivery: a paste with spaces or a line break around it, or one the scheme
 * cannot use as a key (Standard Webhooks needs base64). The message never quotes the value.
 */
export function assertUsableSigningSecret(
  scheme: SignatureSchemeName,
  options: GenericHmacOptions | null,
  value: string,
  path: string,
): void {
  if (value !== value.trim()) {
    throw new ApiError(
      'invalid_input',
      `${path}: remove the spaces or line breaks around the pasted secret`,
      path,
    );
  }
  try {
    // Signing an empty body is the scheme's own check of the key (see each scheme's sign()).
    getSignatureScheme(scheme).sign({
      body: Buffer.alloc(0),
      secret: value,
      timestamp: 0,
      id: 'check',
      options,
    });
  } catch (error) {
    if (!(error instanceof SigningError)) throw error;
    throw new ApiError(
      'invalid_input',
      `${path}: not usable with the ${scheme} scheme (${error.message})`,
      path,
    );
  }
}

/**
 * A team secret may back several webhooks; a new value must work for every one of them (URL-safe
 * for url_token, a usable key for each signature scheme), or rotating would silently break some.
 */
export function assertFitsEveryWebhook(
  value: string,
  webhooks: ReadonlyArray<{
    authMode: AuthMode;
    signatureScheme: SignatureSchemeName | null;
    signatureOptions: GenericHmacOptions | null;
  }>,
  path: string,
): void {
  for (const webhook of webhooks) {
    if (webhook.authMode === 'url_token') assertUrlSafe(value, path);
    if (webhook.authMode === 'signature' && webhook.signatureScheme !== null) {
      assertUsableSigningSecret(webhook.signatureScheme, webhook.signatureOptions, value, path);
    }
  }
}
