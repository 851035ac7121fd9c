import { PROVIDERS, type ProviderSetup, type SignatureSchemeName } from './providers/index.js';

export type { ProviderSetup, SetupStep } from './providers/index.js';

/**
 * What the operator does at the sender once a webhook exists: one short checklist per provider,
 * from the provider's own webhook settings page, kept in its description (src/shared/providers).
 * A step names a value to paste with `{url}` or `{secret}`, shown beside it with a copy button.
 */
export const PROVIDER_SETUP = Object.fromEntries(
  PROVIDERS.map((provider) => [provider.name, provider.setup]),
) as Record<SignatureSchemeName, ProviderSetup>;

/**
 * Schemes whose secret the operator invents and gives the provider: the Add dialog offers
 * Generate. The other providers make the secret themselves, to be pasted here.
 */
export const OPERATOR_INVENTS_SECRET: readonly SignatureSchemeName[] = PROVIDERS.filter(
  (provider) => provider.secret.maker === 'operator',
).map((provider) => provider.name);

/** Token and URL-token webhooks: the sender is a program of the operator's. */
export const TOKEN_SETUP: Record<'token' | 'url_token', ProviderSetup> = {
  token: {
    where: 'In the sending program or service.',
    steps: [
      { text: 'POST JSON to:', value: 'url' },
      { text: 'With the header Authorization: Bearer and this secret.', value: 'secret' },
    ],
  },
  url_token: {
    where: 'In the sending program or service.',
    steps: [{ text: 'POST JSON to this URL (it holds the secret):', value: 'url' }],
  },
};

/** Whether a URL's host is this machine only (senders on the internet cannot reach it). */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return false;
  }
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
