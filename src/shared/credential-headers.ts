/**
 * Headers whose values are credentials (PRODUCT.md §13): never stored, forwarded or filtered on.
 * Redacted on every webhook whatever its mode, since a sender may send any of them. Lower case.
 */
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'x-hub-signature-256',
  'x-hub-signature',
  'stripe-signature',
  'webhook-signature',
  'svix-signature',
  'x-slack-signature',
  'x-shopify-hmac-sha256',
  'shopify-hmac-sha256',
  'linear-signature',
  'x-gitlab-token',
  'paddle-signature',
]);

/** What a stored header value reads when it was a credential: its presence stays visible. */
export const REDACTED = '[redacted]';

/** `extra`: the generic `hmac-sha256` webhook's own signature header, lower case, if any. */
export function isCredentialHeader(name: string, extra: string | null = null): boolean {
  const lower = name.toLowerCase();
  return CREDENTIAL_HEADERS.has(lower) || lower === extra;
}
