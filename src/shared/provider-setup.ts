import type { ProviderSetup } from './providers/index.js';

export type { ProviderSetup, SetupStep } from './providers/index.js';

/* A provider's own checklist is in its description: src/shared/providers/<name>.ts (`setup`). */

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
