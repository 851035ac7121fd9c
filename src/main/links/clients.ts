import type { LinkRecord } from '../store/links.js';
import type { ProviderClient, ProviderTiming } from './provider.js';

/** The provider's own client for a link; its token is sent to the link's `apiBaseUrl` only. */
export type ClientFactory = (link: LinkRecord, token: string) => Promise<ProviderClient>;

/**
 * Each provider's SDK (Octokit, gitbeaker, stripe) loads when a link of its kind is first used:
 * most relays link one provider or none, and loading all three cost every start about a second.
 */
export function providerClients(timing: ProviderTiming): ClientFactory {
  return async (link, token) => {
    const options = { target: link.target, apiBaseUrl: link.apiBaseUrl, token, timing };
    switch (link.kind) {
      case 'github':
        return (await import('./github.js')).githubClient(options);
      case 'gitlab':
        return (await import('./gitlab.js')).gitlabClient(options);
      case 'stripe':
        return (await import('./stripe.js')).stripeClient(options);
    }
  };
}
