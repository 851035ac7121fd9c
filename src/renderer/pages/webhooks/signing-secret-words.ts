import { findProvider } from '../../../shared/providers/index.js';

/** Whether the operator makes this scheme's secret up (and gives it to the provider). */
export const weInventSecret = (scheme: string): boolean =>
  findProvider(scheme)?.secret.maker === 'operator';

/** Whether a blank secret is fine for this scheme: the relay generates one. */
export const relayMayGenerateSecret = (scheme: string | null): boolean =>
  scheme !== null && findProvider(scheme)?.secret.maker === 'either';

/** Who makes the secret, and so what to do with the field (the hint under it). */
export function signingSecretHint(scheme: string): string {
  return (
    findProvider(scheme)?.secret.hint ??
    'The provider makes this secret: copy it from its webhook settings and paste it here.'
  );
}

/** What to do when rotating a signature webhook's secret, by who makes it. */
export function rotateSecretHint(scheme: string | null): string {
  if (relayMayGenerateSecret(scheme)) {
    return 'Paste the new secret from the provider, or leave it blank and the relay generates one (whsec_…) for you to give the sender.';
  }
  return weInventSecret(scheme ?? '')
    ? 'Type a new secret of your choosing, then give the provider the same value. It cannot be blank.'
    : 'Rotate it at the provider first, then paste the new signing secret here. It cannot be blank.';
}

/** 32 random bytes as hex: as strong as any provider asks, and safe in every header and form. */
export function generatedSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
