import { OPERATOR_INVENTS_SECRET } from '../../../shared/provider-setup.js';
import type { SignatureSchemeName } from '../../../shared/signature-schemes.js';

const PROVIDER_NAMES: Partial<Record<string, string>> = {
  stripe: 'Stripe',
  slack: 'Slack',
  shopify: 'Shopify',
  linear: 'Linear',
  paddle: 'Paddle',
};

/** Whether the operator makes this scheme's secret up (and gives it to the provider). */
export const weInventSecret = (scheme: string): boolean =>
  (OPERATOR_INVENTS_SECRET as readonly string[]).includes(scheme);

/** Who makes the secret, and so what to do with the field (the hint under it). */
export function signingSecretHint(scheme: string): string {
  if (scheme === 'standard-webhooks') {
    return 'Paste the sender’s signing secret, or leave it blank: the relay generates one (whsec_…) for you to give the sender.';
  }
  if (weInventSecret(scheme)) {
    const where =
      scheme === 'github'
        ? 'GitHub’s Secret field'
        : scheme === 'gitlab'
          ? 'GitLab’s Secret token field'
          : 'the sender';
    return `You choose this secret: press Generate (or type one), then give the same value to ${where}. The checklist after Create shows it again.`;
  }
  const name = PROVIDER_NAMES[scheme as SignatureSchemeName] ?? 'The provider';
  return `${name} makes this secret: copy it from its webhook settings and paste it here.`;
}

/** 32 random bytes as hex: as strong as any provider asks, and safe in every header and form. */
export function generatedSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
