import { isIP } from 'node:net';
import { providerOf } from '../../shared/providers/index.js';
import type { SignatureSchemeName } from '../../shared/signature-schemes.js';

/**
 * Where `forward` may send a fresh signature (issue 24): one made with a webhook's own secret is a
 * signing oracle for anything sent with it, so by default it goes only to this machine's handler
 * under test. Elsewhere only when the call says so, and never for GitLab, whose "signature" is
 * the secret itself: that token goes to nobody but GitLab (and the relay's own machine).
 */

/** Why this send may not be signed, or null when it may. */
export function signingRefusal(
  target: URL,
  scheme: SignatureSchemeName | null,
  allowRemoteSigning: boolean,
): string | null {
  if (isLoopbackUrl(target)) return null;
  const host = target.host;
  const provider = scheme === null ? null : providerOf(scheme);
  if (provider?.secretSentAs) {
    const { label, secretSentAs } = provider;
    return `A ${label} token webhook is never signed for ${host}: its ${secretSentAs} is the webhook's secret itself, which goes to nobody but ${label}. Forward to a loopback URL (127.0.0.1, [::1] or localhost), or send it unsigned.`;
  }
  if (allowRemoteSigning) return null;
  return `Signing for ${host} is refused: a signature made with the webhook's secret goes only to a loopback URL (127.0.0.1, [::1] or localhost) unless you allow remote signing for this send. Allow it, or send it unsigned.`;
}

/**
 * 127.0.0.0/8, ::1 (also IPv4-mapped) and `localhost` itself (the hosts file's): no other name,
 * since a DNS answer could point it anywhere.
 */
export function isLoopbackUrl(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) {
    if (host === '::1') return true;
    // WHATWG URL writes ::ffff:127.0.0.1 as ::ffff:7f00:1.
    const mapped = /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.exec(host);
    return mapped !== null;
  }
  return false;
}
