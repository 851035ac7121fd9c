import { PROVIDERS } from './providers/index.js';

/**
 * Headers whose values are credentials (PRODUCT.md §13): never stored, forwarded or filtered on.
 * Redacted on every webhook whatever its mode, since a sender may send any of them: the standard
 * ones and every provider's signature headers. Lower case.
 */
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  ...PROVIDERS.flatMap((provider) => provider.credentialHeaders),
]);

/** What a stored header value reads when it was a credential: its presence stays visible. */
export const REDACTED = '[redacted]';

/** `extra`: the webhook's own credential header (see ownCredentialHeader), lower case, if any. */
export function isCredentialHeader(name: string, extra: string | null = null): boolean {
  const lower = name.toLowerCase();
  return CREDENTIAL_HEADERS.has(lower) || lower === extra;
}
